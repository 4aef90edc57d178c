/** An event kept for replay, as the pool sees it. */
export interface PooledEvent {
  readonly data: string;
}

/** What keeps pooled events: the pool tells it to let one go, always the oldest it has. */
export interface EventKeeper {
  drop(event: PooledEvent): void;
}

/**
 * The events every session of one endpoint keeps for Last-Event-ID replay,
 * oldest first, so that their bytes all together stay within `maxBytes`:
 * past it the oldest event goes, whichever session holds it, so a session
 * left idle gives way to one at work. The newest event stays even when it
 * alone is larger (a response a client may still need to resume).
 */
export class ReplayPool {
  private readonly events = new Map<PooledEvent, EventKeeper>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes of every kept event, counted as the characters of its data. */
  get bytes(): number {
    return this.held;
  }

  added(event: PooledEvent, keeper: EventKeeper): void {
    this.events.set(event, keeper);
    this.held += event.data.length;
    while (this.held > this.maxBytes && this.events.size > 1) {
      const [oldest, keeper] = this.events.entries().next().value as [PooledEvent, EventKeeper];
      this.removed(oldest);
      keeper.drop(oldest);
    }
  }

  /** The keeper let `event` go (its own limits, or the session ended). */
  removed(event: PooledEvent): void {
    if (this.events.delete(event)) this.held -= event.data.length;
  }
}
