/**
 * The two halves of one HTTP exchange as the door sees them, whatever the
 * runtime: node:http's IncomingMessage and ServerResponse are them as they
 * are (the Node path allocates nothing to adapt), and the fetch handler
 * builds them around a web `Request` and the `Response` it resolves to.
 */

import type { Network } from "../../tracing/channels.js";

/** What traces say every request through the door travelled on. */
export const HTTP_NETWORK: Network = { transport: "tcp", protocol: "http" };

/** Header values by lower-case name, as node:http gives them. */
export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

/** Response headers: what `writeHead` takes. */
export type ResponseHeaders = Record<string, string | number | string[]>;

/** What the door reads of a request before its body. */
export interface RequestHead {
  readonly method?: string | undefined;
  /** The path and query, as sent on the request line. */
  readonly url?: string | undefined;
  readonly headers: HeaderMap;
  /** Header names and values as sent, in turn (node:http's), where the runtime keeps them. */
  readonly rawHeaders?: readonly string[];
}

/** The first value of a header, for headers that must have one. */
export function headerOf(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** How the door writes one response: whole, or as a stream of events. */
export interface ResponseWriter {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  /** Bytes written but not sent yet: grows while the client does not read. */
  readonly writableLength: number;
  /** A header for whatever response follows, beside those `writeHead` gives (which win). */
  setHeader(name: string, value: string): unknown;
  writeHead(status: number, headers?: ResponseHeaders): unknown;
  /** Sends the status and headers now, before any body (an event stream starts). */
  flushHeaders(): void;
  write(chunk: string): unknown;
  end(chunk?: string): unknown;
  /** Drops the connection. */
  destroy(): unknown;
  /**
   * "finish": the response went out whole. "close": the exchange is over,
   * because the response went out or because the client went away first.
   */
  once(event: "close" | "finish", listener: () => void): unknown;
}

export type BodyOutcome =
  | { ok: true; text: string }
  | { ok: false; reason: "too-large" | "not-utf8" | "aborted" }
  /** Where the runtime does not bound the time a body takes (node:http does: 408 before the door). */
  | { ok: false; reason: "timed-out"; afterMs: number };

/** How one runtime reads a request body. */
export interface BodySource<Req extends RequestHead> {
  /** Reads the body, keeping at most `maxBytes`. */
  read(req: Req, maxBytes: number, done: (outcome: BodyOutcome) => void): void;
  /** After a 413 is sent: stop reading what is left of the body rather than wait for it. */
  drop(req: Req, res: ResponseWriter): void;
}
