import type { ResolvedHttpOptions } from "../../settings/http-options.js";
import type { ResponseWriter } from "./exchange.js";
import { CallerCounts, heldLimitRefusal } from "./held-limits.js";
import type { Refusal } from "./security.js";

/**
 * The 2026-07-28 listen streams an endpoint holds open: each holds its
 * connection for as long as its client wants, so they are bounded as
 * sessions are (maxSessions, maxSessionsPerCaller), counted apart.
 */
export class ListenStreamCount {
  private open = 0;
  private readonly perCaller = new CallerCounts();

  constructor(private readonly options: ResolvedHttpOptions) {}

  get size(): number {
    return this.open;
  }

  /** Counts one more for `caller` (its callerKey) until `res` closes; the refusal when it has no room. */
  hold(caller: string | undefined, res: ResponseWriter): Refusal | undefined {
    const refusal = heldLimitRefusal(
      "listen streams",
      this.open,
      this.perCaller.of(caller),
      this.options,
    );
    if (refusal) return refusal;
    this.open++;
    this.perCaller.add(caller);
    res.once("close", () => {
      this.open--;
      this.perCaller.remove(caller);
    });
    return undefined;
  }
}
