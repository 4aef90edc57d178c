import type { HttpSessionTransport } from "./session-transport.js";

export interface HttpStats {
  sessions: number;
  /** Requests whose response has not been sent yet. */
  requestsInFlight: number;
  /** Unfinished POST streams a client could resume. */
  resumableStreams: number;
  /** Events kept for Last-Event-ID replay (bounded per session and in all). */
  storedEvents: number;
  /** Their bytes, counted as characters of JSON (at most replay.maxTotalBytes, but for one event larger alone). */
  storedEventBytes: number;
  /** 2026-07-28 listen streams open (at most maxSessions, and maxSessionsPerCaller per caller, counted apart from sessions). */
  listenStreams: number;
}

/** What some sessions hold together: each figure returns to its floor when requests end. */
export function sessionTotals(
  transports: Iterable<HttpSessionTransport>,
): Omit<HttpStats, "listenStreams"> {
  const totals = {
    sessions: 0,
    requestsInFlight: 0,
    resumableStreams: 0,
    storedEvents: 0,
    storedEventBytes: 0,
  };
  for (const transport of transports) {
    const held = transport.pending;
    totals.sessions++;
    totals.requestsInFlight += held.exchanges;
    totals.resumableStreams += held.streams;
    totals.storedEvents += held.events;
    totals.storedEventBytes += held.eventBytes;
  }
  return totals;
}
