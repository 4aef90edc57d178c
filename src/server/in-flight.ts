/** The cancellation state of one request; the AbortController is made only when asked for. */
export class InFlight {
  private controller: AbortController | undefined;
  private reason: Error | undefined;
  cancelled = false;
  /** Answered: nothing more may be sent for it (progress must stop at completion). */
  finished = false;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.cancelled && !this.controller.signal.aborted) this.controller.abort(this.reason);
    return this.controller.signal;
  }

  cancel(reason: string): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = new Error(reason);
    this.controller?.abort(this.reason);
  }
}
