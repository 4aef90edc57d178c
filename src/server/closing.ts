/**
 * Whether something shared by many requests (a server, an HTTP door) is
 * closed, and what those requests do when it closes: callbacks in a plain
 * set, not listeners of an AbortSignal, because a Worker makes its server and
 * door during its first request, and workerd lets no request touch an object
 * made during another (not even read an AbortSignal's `aborted`).
 */
export class Closing {
  private readonly callbacks = new Set<() => void>();
  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  /** Calls `callback` when the closes (at once if it has); returns what stops waiting. */
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
