/** The cancellation state of one request; the AbortController is made only when asked for. */
export class InFlight {
  private controller: AbortController | undefined;
  /** Why the handler's signal is aborted, once it is. */
  private reason: Error | undefined;
  cancelled = false;
  /** Answered: nothing more may be sent for it (progress must stop at completion). */
  finished = false;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.reason && !this.controller.signal.aborted) this.controller.abort(this.reason);
    return this.controller.signal;
  }

  /** The client cancelled, or its connection ended: the request is not answered. */
  cancel(reason: string): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.stop(new Error(reason));
  }

  /** Aborts the handler's signal while the request is still answered (its time limit passed). */
  stop(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}
