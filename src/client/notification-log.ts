import type { ServerNotification } from "./link.js";

type Matches = (notification: ServerNotification) => boolean;

interface Waiter {
  matches: Matches;
  what: string;
  resolve(notification: ServerNotification): void;
  reject(error: Error): void;
}

/** Every notification a client received, in order, and promises of those to come. */
export class NotificationLog {
  readonly received: ServerNotification[] = [];
  private readonly waiters = new Set<Waiter>();
  private closed = false;

  push(notification: ServerNotification): void {
    this.received.push(notification);
    for (const waiter of [...this.waiters]) {
      if (waiter.matches(notification)) {
        this.waiters.delete(waiter);
        waiter.resolve(notification);
      }
    }
  }

  /** The first notification from index `from` on that matches, received already or to come. */
  wait(matches: Matches, what: string, from = 0): Promise<ServerNotification> {
    const found = this.received.slice(from).find(matches);
    if (found) return Promise.resolve(found);
    if (this.closed) return Promise.reject(closedWaiting(what));
    return new Promise((resolve, reject) => {
      this.waiters.add({ matches, what, resolve, reject });
    });
  }

  /** Nothing more will arrive: whoever still waits is told so. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters) waiter.reject(closedWaiting(waiter.what));
    this.waiters.clear();
  }
}

function closedWaiting(what: string): Error {
  return new Error(`The client closed while waiting for ${what}`);
}
