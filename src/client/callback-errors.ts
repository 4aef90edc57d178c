/**
 * What the author's `onNotification` threw. Thrown where the notification is
 * delivered, it would reach the server (a 2026-07-28 request's notify) or the
 * session's message loop (a 2025 revision) and not the test; so, as the
 * official SDK Client does with a notification handler's error, the client
 * catches it and goes on. The first is the test's failure, given once, when
 * the test closes the client.
 */
export class CallbackErrors {
  private first: { error: unknown; method: string } | undefined;
  private later = 0;

  /** Calls `callback` with the notification, keeping what it throws. */
  call<T extends { method: string }>(
    callback: ((notification: T) => void) | undefined,
    notification: T,
  ): void {
    try {
      callback?.(notification);
    } catch (error) {
      if (this.first) this.later++;
      else this.first = { error, method: notification.method };
    }
  }

  /** Throws the first error kept, once: undefined after that, and when none was. */
  throwFirst(): void {
    const { first, later } = this;
    if (!first) return;
    this.first = undefined;
    this.later = 0;
    const why = first.error instanceof Error ? first.error.message : String(first.error);
    const more =
      later === 0 ? "" : ` (and on ${later} more notification${later === 1 ? "" : "s"} after it)`;
    throw new Error(
      `The onNotification callback threw on ${first.method}: ${why}${more}; the client went on receiving every notification`,
      { cause: first.error },
    );
  }
}
