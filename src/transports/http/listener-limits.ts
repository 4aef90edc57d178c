import type { Server, ServerOptions } from "node:http";
import type { ListenerLimits } from "../../settings/listener-limits.js";

/**
 * node:http's own time limits. It checks them every
 * `connectionsCheckingInterval` (30 s unless told), which would let a slow
 * client hold on long past a 10 s limit: check at a tenth of the shortest,
 * at most once a second.
 */
export function nodeServerOptions(limits: ListenerLimits): ServerOptions {
  const set = [limits.headersTimeoutMs, limits.requestTimeoutMs].filter((ms) => ms > 0);
  const shortest = Math.min(...set);
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    ...(set.length > 0 && {
      connectionsCheckingInterval: Math.max(1, Math.min(1000, Math.floor(shortest / 10))),
    }),
  };
}

/** How often, at most, refused connections are reported. */
const DROP_REPORT_MS = 60_000;

/**
 * Caps the connections `listener` holds. Past the cap node:http closes a new
 * connection at once: answering it would mean reading its request, the very
 * work the cap refuses. The refusals are reported on stderr at most once a
 * minute, so the operator sees them and a flood does not flood the log.
 */
export function capConnections(
  listener: Server,
  maxConnections: number,
  warn: (message: string) => void,
): void {
  if (maxConnections === 0) return;
  listener.maxConnections = maxConnections;
  let refused = 0;
  let reportedAt = Number.NEGATIVE_INFINITY;
  listener.on("drop", () => {
    refused++;
    const now = Date.now();
    if (now - reportedAt < DROP_REPORT_MS) return;
    reportedAt = now;
    warn(
      `refused ${refused === 1 ? "a connection" : `${refused} connections`}: the server already holds its limit of ${maxConnections} (maxConnections); each was closed unanswered. Raise http.maxConnections if this is expected load`,
    );
    refused = 0;
  });
}
