import type { ResolvedHttpOptions } from "../../settings/http-options.js";
import { TRANSPORT_ERROR } from "./responses.js";
import type { Refusal } from "./security.js";

/** How many of one kind of thing (sessions, listen streams) each caller holds, by callerKey. */
export class CallerCounts {
  private readonly counts = new Map<string, number>();

  /** What `caller` holds; undefined when there is no caller to name (no auth, the static token). */
  of(caller: string | undefined): number | undefined {
    return caller === undefined ? undefined : (this.counts.get(caller) ?? 0);
  }

  add(caller: string | undefined): void {
    if (caller !== undefined) this.counts.set(caller, (this.counts.get(caller) ?? 0) + 1);
  }

  remove(caller: string | undefined): void {
    if (caller === undefined) return;
    const left = (this.counts.get(caller) ?? 0) - 1;
    if (left > 0) this.counts.set(caller, left);
    else this.counts.delete(caller);
  }
}

/** What a refused caller can free: one of its sessions, or one of its listen streams. */
const RELEASE = { sessions: "end one (DELETE)", "listen streams": "close one" } as const;

/**
 * Why one more session or listen stream is refused, or undefined when there
 * is room: the caller's own bound first (429: it can make room itself), then
 * the server's (503: it is full for everyone). `total` is what the server
 * holds of that kind, `held` what this caller holds (undefined: no caller to
 * name, bounded by maxSessions alone). No Retry-After: a place comes back
 * only when one ends, which no clock here can foretell.
 */
export function heldLimitRefusal(
  kind: keyof typeof RELEASE,
  total: number,
  held: number | undefined,
  options: ResolvedHttpOptions,
): Refusal | undefined {
  const release = RELEASE[kind];
  const { maxSessions, maxSessionsPerCaller } = options;
  if (held !== undefined && held >= maxSessionsPerCaller) {
    return {
      status: 429,
      code: TRANSPORT_ERROR,
      message: `Too Many Requests: this caller (the one the access token names) already holds its limit of ${maxSessionsPerCaller} ${kind}; ${release}, or raise maxSessionsPerCaller (--max-sessions-per-caller)`,
    };
  }
  if (total < maxSessions) return undefined;
  return {
    status: 503,
    code: TRANSPORT_ERROR,
    message: `Service Unavailable: the server already holds its limit of ${maxSessions} ${kind}; ${release} or try again later, or raise maxSessions (--max-sessions)`,
  };
}
