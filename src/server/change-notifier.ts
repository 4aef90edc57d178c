import type { RegistryChange } from "../registry/registry.js";
import type { Session } from "./session.js";

/**
 * Folds the registry changes of one turn of the event loop into one
 * notification per kind, sent to every initialized session; subscribers of a
 * changed resource get resources/updated.
 */
export class ChangeNotifier {
  private pending:
    | { tools: boolean; prompts: boolean; resources: boolean; uris: Set<string> }
    | undefined;

  constructor(private readonly sessions: () => Iterable<Session>) {}

  add(change: RegistryChange): void {
    if (!this.pending) {
      this.pending = { tools: false, prompts: false, resources: false, uris: new Set() };
      setImmediate(() => this.flush());
    }
    this.pending.tools ||= change.tools;
    this.pending.prompts ||= change.prompts;
    this.pending.resources ||= change.resources;
    for (const uri of change.updatedUris) this.pending.uris.add(uri);
  }

  private flush(): void {
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    for (const session of this.sessions()) {
      if (!session.initialized) continue;
      if (pending.tools) session.notify("notifications/tools/list_changed", {});
      if (pending.prompts) session.notify("notifications/prompts/list_changed", {});
      if (pending.resources) session.notify("notifications/resources/list_changed", {});
      for (const uri of pending.uris) {
        if (session.subscriptions.has(uri))
          session.notify("notifications/resources/updated", { uri });
      }
    }
  }
}
