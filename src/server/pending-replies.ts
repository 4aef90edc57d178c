/** Replies still being made, so the end of a client's input can wait until they are sent. */
export class PendingReplies {
  private readonly pending = new Set<Promise<unknown>>();

  /** Keeps `reply` until it settles; `failed` is told why if it rejects. */
  add(reply: Promise<unknown>, failed: (error: unknown) => void): void {
    this.pending.add(reply);
    reply.then(
      () => this.pending.delete(reply),
      (error: unknown) => {
        this.pending.delete(reply);
        failed(error);
      },
    );
  }

  /** Resolves once every reply, those added meanwhile included, has settled. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
