import type { UriTemplate } from "../define/uri-template.js";
/** What changed on a server, folded over one turn of the event loop. */
export interface ServerChange {
  readonly tools: boolean;
  readonly prompts: boolean;
  readonly resources: boolean;
  /** Resources whose contents changed: their subscribers get resources/updated. */
  readonly updatedUris: readonly string[];
  /**
   * Of `updatedUris`, those that code announced (`resourceUpdated`, a
   * resource's `watch`): a bus shared by replicas carries them to every
   * replica. The rest, and the list changes, are this replica's own (its
   * folder's files), which no other replica serves.
   */
  readonly announcedUris: readonly string[];
  /**
   * URI templates whose definitions were reloaded (this replica's own): a
   * subscribed URI one of them matches may read differently now.
   */
  readonly updatedTemplates?: readonly UriTemplate[];
}

/** Whether a change may have changed what `uri` reads. */
export function updates(change: ServerChange, uri: string, updated: ReadonlySet<string>): boolean {
  return (
    updated.has(uri) || (change.updatedTemplates ?? []).some((t) => t.match(uri) !== undefined)
  );
}

export type ChangeListener = (change: ServerChange) => void;

/**
 * Carries server changes to whoever tells clients about them: a 2025 session
 * and a 2026 listen stream are both subscribers. The in-process bus serves one
 * process; a shared one (Redis, say) lets replicas see each other's changes.
 */
export interface ChangeBus {
  publish(change: ServerChange): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: ChangeListener): () => void;
}

export class InProcessChangeBus implements ChangeBus {
  private readonly listeners = new Set<ChangeListener>();

  publish(change: ServerChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  get size(): number {
    return this.listeners.size;
  }
}
