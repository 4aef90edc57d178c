import type { Subscription } from "./stateless-link.js";

/**
 * 2026-07-28 has no `resources/subscribe`: a client subscribed to a resource
 * holds a listen stream for its URI. These are a client's, by URI: one
 * stream a URI, kept from the moment it is asked for, so a second subscribe
 * while the first is opening waits for that stream instead of opening another.
 */
export class ResourceStreams {
  private readonly streams = new Map<string, Promise<Subscription>>();

  constructor(private readonly open: (uri: string) => Promise<Subscription>) {}

  async subscribe(uri: string): Promise<void> {
    let opening = this.streams.get(uri);
    if (!opening) {
      opening = this.open(uri);
      this.streams.set(uri, opening);
      // Refused: the next subscribe tries again.
      opening.catch(() => {
        if (this.streams.get(uri) === opening) this.streams.delete(uri);
      });
    }
    await opening;
  }

  async unsubscribe(uri: string): Promise<void> {
    const opening = this.streams.get(uri);
    this.streams.delete(uri);
    await closeOnceOpen(opening);
  }

  /** Closes every stream (the client closes). */
  async close(): Promise<void> {
    const streams = [...this.streams.values()];
    this.streams.clear();
    await Promise.all(streams.map(closeOnceOpen));
  }
}

/** Closes a stream, still opening or open; one that was refused has nothing to close. */
async function closeOnceOpen(opening: Promise<Subscription> | undefined): Promise<void> {
  const stream = await opening?.catch(() => undefined);
  await stream?.close();
}
