/**
 * Whether a door is closed, and what its requests in flight do when it
 * closes: callbacks in a plain set, not listeners of an AbortSignal, because
 * a Worker makes its door during its first request, and workerd lets no
 * request touch an object made during another.
 */
export class DoorClosing {
  private readonly callbacks = new Set<() => void>();
  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  /** Calls `callback` when the door closes (at once if it has); returns what stops waiting. */
  readonly atClose = (callback: () => void): (() => void) => {
    if (this.isClosed) {
      callback();
      return () => {};
    }
    this.callbacks.add(callback);
    return () => this.callbacks.delete(callback);
  };

  close(): void {
    this.isClosed = true;
    for (const callback of [...this.callbacks]) callback();
    this.callbacks.clear();
  }
}
