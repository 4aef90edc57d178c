import type { ResponseHeaders, ResponseWriter } from "./exchange.js";
import { atExpiry } from "./token-expiry.js";

/**
 * Past this much unsent output the client is not reading: drop the connection
 * rather than buffer without end. Its events stay in the replay store, so the
 * client can resume once it catches up.
 */
const MAX_UNSENT_BYTES = 16 * 1024 * 1024;

const SSE_HEADERS: ResponseHeaders = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  // Asks nginx and similar proxies not to buffer the stream.
  "x-accel-buffering": "no",
};

/**
 * One HTTP response carrying Server-Sent Events. A logical stream may outlive
 * it: after a drop, the client resumes on a new connection with Last-Event-ID.
 */
export class SseConnection {
  private isOpen = true;
  private stopExpiry = () => {};

  constructor(
    private readonly res: ResponseWriter,
    extraHeaders: ResponseHeaders | undefined,
    private readonly onClose: (connection: SseConnection) => void,
  ) {
    res.writeHead(200, extraHeaders ? { ...SSE_HEADERS, ...extraHeaders } : SSE_HEADERS);
    res.flushHeaders();
    res.once("close", () => {
      this.stopExpiry();
      if (!this.isOpen) return;
      this.isOpen = false;
      onClose(this);
    });
  }

  /**
   * Ends the response at `until` (when the token it was opened under stops
   * being accepted) as if the client had left: `onClose` is called, so its
   * stream lets it go and keeps what follows for a resumption, and the
   * client, seeing the end, reconnects through the gate.
   */
  endAt(until: number | undefined): void {
    this.stopExpiry();
    this.stopExpiry = atExpiry(until, () => {
      if (!this.isOpen) return;
      this.isOpen = false;
      this.onClose(this);
      this.res.end();
    });
  }

  get open(): boolean {
    return this.isOpen && !this.res.destroyed;
  }

  /**
   * Writes one event; `data` is one line of JSON, or "" for a priming event.
   * Without an id (2026-07-28 streams are not resumable) the event has none.
   */
  event(id: string | undefined, data: string, retryMs?: number): boolean {
    if (!this.open) return false;
    const retry = retryMs === undefined ? "" : `retry: ${retryMs}\n`;
    const idLine = id === undefined ? "" : `id: ${id}\n`;
    this.res.write(`${idLine}${retry}data: ${data}\n\n`);
    if (this.res.writableLength <= MAX_UNSENT_BYTES) return true;
    this.res.destroy();
    return false;
  }

  /** A comment line: keeps proxies and idle timers from cutting a quiet stream. */
  comment(text: string): void {
    if (this.open) this.res.write(`: ${text}\n\n`);
  }

  /** Ends the response; `onClose` is not called for an end we asked for. */
  end(): void {
    this.stopExpiry();
    if (!this.isOpen) return;
    this.isOpen = false;
    this.res.end();
  }
}
