/** The cancellation state of one request; the AbortController is made only when asked for. */
export class InFlight {
  private controller: AbortController | undefined;
  /** Why the handler's signal is aborted, once it is. */
  private reason: Error | undefined;
  /** The run waiting on this request (`withinTimeLimit`), told when it is cancelled. */
  private waiter: ((reason: Error) => void) | undefined;
  cancelled = false;
  /** Answered: nothing more may be sent for it (progress must stop at completion). */
  finished = false;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.reason && !this.controller.signal.aborted) this.controller.abort(this.reason);
    return this.controller.signal;
  }

  /** Why the handler's signal is aborted (cancelled, or past its time limit), once it is. */
  get stopped(): Error | undefined {
    return this.reason;
  }

  /** The client cancelled, or its connection ended: the request is not answered. */
  cancel(reason: string): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.stop(new DOMException(reason, "AbortError"));
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(this.reason as Error);
  }

  /** Aborts the handler's signal while the request is still answered (its time limit passed). */
  stop(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller?.abort(reason);
  }

  /**
   * Calls `callback` with the reason when the request is cancelled (at once if
   * it has been), so that what waits on its handler stops waiting: nothing is
   * sent for it whenever the handler ends. Returns what stops waiting.
   */
  whenCancelled(callback: (reason: Error) => void): () => void {
    if (this.cancelled) {
      callback(this.reason as Error);
      return () => {};
    }
    this.waiter = callback;
    return () => {
      if (this.waiter === callback) this.waiter = undefined;
    };
  }
}
