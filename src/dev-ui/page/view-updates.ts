import type { Client } from "@modelcontextprotocol/client";
import type { Timeline } from "./timeline.js";

type McpSubscription = Awaited<ReturnType<Client["listen"]>>;

/**
 * The views shown on the page, followed as a host follows them: one
 * `subscriptions/listen` stream names every shown view's URI (one stream,
 * not one per view: a browser opens few connections to one origin), and a
 * `notifications/resources/updated` of one renders it again. The stream is
 * opened anew when the set of URIs changes, the new one before the old one
 * closes, so no save between them goes unheard, and closed when no view is
 * shown any more.
 */
export class ViewUpdates {
  private readonly watchers = new Map<string, Set<() => void>>();
  private stream: Promise<McpSubscription | undefined> = Promise.resolve(undefined);

  constructor(
    private readonly client: Client,
    private readonly timeline: Timeline,
  ) {}

  /** Calls `rerender` on every update of `uri`, until the function returned is called. */
  watch(uri: string, rerender: () => void): () => void {
    let watchers = this.watchers.get(uri);
    if (!watchers) {
      watchers = new Set();
      this.watchers.set(uri, watchers);
      this.listenAgain();
    }
    watchers.add(rerender);
    return () => {
      if (!watchers.delete(rerender) || watchers.size > 0) return;
      this.watchers.delete(uri);
      this.listenAgain();
    };
  }

  /** The server said `uri` changed. */
  updated(uri: string): void {
    for (const rerender of this.watchers.get(uri) ?? []) rerender();
  }

  private listenAgain(): void {
    const uris = [...this.watchers.keys()];
    this.stream = this.stream.then(async (old) => {
      const fresh =
        uris.length === 0
          ? undefined
          : await this.client.listen({ resourceSubscriptions: uris }).catch((error: unknown) => {
              this.timeline.add("error", `listening for views failed: ${(error as Error).message}`);
              return undefined;
            });
      if (fresh) this.timeline.add("list", `listening for updates of ${uris.join(", ")}`);
      else if (uris.length === 0 && old)
        this.timeline.add("list", "stopped listening for updates of views: none is shown");
      await old?.close().catch(() => {});
      return fresh;
    });
  }
}
