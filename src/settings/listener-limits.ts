import { givenValue } from "../define/given-value.js";
import { DEFAULT_MAX_SESSIONS } from "./http-options.js";

/** What a listener of our own allows a client that is slow to send, or one connection too many. */
export interface ListenerLimitOptions {
  /**
   * How long a client may take to send a request's headers, in ms. Default
   * 10 s; past it the client gets 408 and the connection closes. 0: no limit.
   */
  headersTimeoutMs?: number;
  /**
   * How long a client may take to send a whole request, headers and body,
   * in ms. Default 30 s; past it the client gets 408 and the connection
   * closes. The answer is not limited: an event stream stays open for as
   * long as the client reads it. 0: no limit.
   */
  requestTimeoutMs?: number;
  /**
   * Connections open at once. Default 2 × maxSessions + 1000 (3000): room
   * for every session's GET stream and every listen stream, and 1000 more.
   * One more is closed as soon as it is accepted, unanswered. 0: no limit.
   */
  maxConnections?: number;
}

export interface ListenerLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** 0: no limit. */
  readonly maxConnections: number;
}

function wholeNumber(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(
      `${name} must be a whole number of 0 (no limit) or more, got ${givenValue(value)}`,
    );
  }
  return value;
}

/** How long a request may take to arrive (on node:http, headers included). */
export function requestTimeout(value: number | undefined): number {
  return wholeNumber(value, 30_000, "requestTimeoutMs");
}

export function resolveListenerLimits(
  options: ListenerLimitOptions & { maxSessions?: number },
): ListenerLimits {
  const requestTimeoutMs = requestTimeout(options.requestTimeoutMs);
  // The default gives way to a shorter request limit; one the user set must fit in it.
  const headersDefault = requestTimeoutMs > 0 ? Math.min(10_000, requestTimeoutMs) : 10_000;
  const headersTimeoutMs = wholeNumber(
    options.headersTimeoutMs,
    headersDefault,
    "headersTimeoutMs",
  );
  if (headersTimeoutMs > 0 && requestTimeoutMs > 0 && headersTimeoutMs > requestTimeoutMs) {
    throw new TypeError(
      `headersTimeoutMs (${headersTimeoutMs}) must not exceed requestTimeoutMs (${requestTimeoutMs}): the request's time includes its headers`,
    );
  }
  const streams = 2 * (options.maxSessions ?? DEFAULT_MAX_SESSIONS);
  const maxConnections = wholeNumber(options.maxConnections, streams + 1000, "maxConnections");
  return { headersTimeoutMs, requestTimeoutMs, maxConnections };
}
