import { isRawJson } from "../../jsonrpc/index.js";
import { META } from "../../protocol/meta.js";
import type { Implementation } from "../../protocol/types.js";

/**
 * A 2026-07-28 result: `resultType` (the handler may have set
 * "input_required") and the server's identity in `_meta`. Pre-serialised
 * results (list pages) are built complete already.
 */
export function completeResult(result: unknown, serverInfo: Implementation): unknown {
  if (typeof result !== "object" || result === null || isRawJson(result)) return result;
  const fields = result as Record<string, unknown>;
  const meta = fields._meta as Record<string, unknown> | undefined;
  return {
    resultType: "complete",
    ...fields,
    _meta:
      meta === undefined
        ? { [META.serverInfo]: serverInfo }
        : { ...meta, [META.serverInfo]: serverInfo },
  };
}

/** The caching hints 2026-07-28 requires on lists, discover and resources/read. */
export interface CacheHints {
  ttlMs: number;
  cacheScope: "public" | "private";
}
