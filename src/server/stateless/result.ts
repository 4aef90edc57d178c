import { isRawJson, RawJson } from "../../jsonrpc/index.js";
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

/** `"_meta":{…serverInfo}` per server identity, encoded once. */
const encodedMeta = new WeakMap<Implementation, string>();

/**
 * `completeResult`, encoded. The common result (a plain object with neither
 * `_meta` nor `resultType` of its own) is encoded once and framed with the
 * result type and a cached encoding of the server's identity, rather than
 * copied into a new object and encoded whole. Throws what JSON.stringify throws.
 */
export function encodeCompleteResult(result: unknown, serverInfo: Implementation): RawJson {
  if (isRawJson(result)) return result;
  if (
    typeof result !== "object" ||
    result === null ||
    "_meta" in result ||
    "resultType" in result
  ) {
    return RawJson.of(completeResult(result, serverInfo));
  }
  const body = JSON.stringify(result);
  if (body === undefined || body[0] !== "{") return RawJson.of(completeResult(result, serverInfo));
  let meta = encodedMeta.get(serverInfo);
  if (meta === undefined) {
    meta = `"_meta":${JSON.stringify({ [META.serverInfo]: serverInfo })}`;
    encodedMeta.set(serverInfo, meta);
  }
  const fields = body.length > 2 ? `${body.slice(1, -1)},` : "";
  return new RawJson(`{"resultType":"complete",${fields}${meta}}`, true);
}

/** The caching hints 2026-07-28 requires on lists, discover and resources/read. */
export interface CacheHints {
  ttlMs: number;
  cacheScope: "public" | "private";
}
