import type { Subscription } from "./stateless-link.js";

/**
 * 2026-07-28 has no `resources/subscribe`: a client subscribed to a resource
 * holds a listen stream for its URI. These are a client's, by URI.
 */
export class ResourceStreams {
  private readonly streams = new Map<string, Subscription>();

  constructor(private readonly open: (uri: string) => Promise<Subscription>) {}

  async subscribe(uri: string): Promise<void> {
    if (!this.streams.has(uri)) this.streams.set(uri, await this.open(uri));
  }

  async unsubscribe(uri: string): Promise<void> {
    const stream = this.streams.get(uri);
    this.streams.delete(uri);
    await stream?.close();
  }

  /** Closes every stream (the client closes). */
  async close(): Promise<void> {
    const streams = [...this.streams.values()];
    this.streams.clear();
    await Promise.all(streams.map((stream) => stream.close()));
  }
}
