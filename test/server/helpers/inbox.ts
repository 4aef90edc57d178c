/**
 * Collects what arrives (messages, notifications, stderr text) and lets a test
 * wait for something specific with a promise, never with a sleep. The timeout is
 * only a failure guard that names what was awaited and what did arrive.
 */
export const WAIT_TIMEOUT_MS = 10_000;

export class Inbox<T> {
  readonly items: T[] = [];
  private readonly waiters = new Set<() => void>();

  push(item: T): void {
    this.items.push(item);
    for (const wake of [...this.waiters]) wake();
  }

  /**
   * Resolves with the first item (already received or still to come) that matches,
   * looking only at items from index `since` on.
   */
  waitFor(
    matches: (item: T) => boolean,
    what: string,
    since = 0,
    timeoutMs = WAIT_TIMEOUT_MS,
  ): Promise<T> {
    // Each look goes on from where the last stopped: a thousand requests waited for
    // at once each looked through every answer again at every answer.
    let next = since;
    const look = () => {
      if (next > this.items.length) next = 0; // the items were cleared
      for (; next < this.items.length; next++) {
        const item = this.items[next] as T;
        if (matches(item)) return item;
      }
      return undefined;
    };
    return this.waitUntil(look, what, timeoutMs);
  }

  /** Resolves once `count` matching items have arrived, with all of them. */
  waitForCount(
    matches: (item: T) => boolean,
    count: number,
    what: string,
    timeoutMs = WAIT_TIMEOUT_MS,
  ): Promise<T[]> {
    return this.waitUntil(
      () => {
        const found = this.items.filter(matches);
        return found.length >= count ? found : undefined;
      },
      what,
      timeoutMs,
    );
  }

  private waitUntil<R>(check: () => R | undefined, what: string, timeoutMs: number): Promise<R> {
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise<R>((resolve, reject) => {
      const wake = () => {
        const found = check();
        if (found === undefined) return;
        this.waiters.delete(wake);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what}; received:\n${this.describe()}`,
          ),
        );
      }, timeoutMs);
      timer.unref();
      this.waiters.add(wake);
    });
  }

  private describe(): string {
    const last = this.items.at(-1);
    // A text inbox (stderr) holds the whole text so far in its last item.
    if (typeof last === "string") return last;
    const shown = this.items.slice(-20).map((item) => JSON.stringify(item));
    return shown.length > 0 ? shown.join("\n") : "(nothing)";
  }
}
