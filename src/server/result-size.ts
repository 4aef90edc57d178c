import { Buffer } from "node:buffer";
import { errorResult } from "../define/tool-result.js";
import { ErrorCode, JsonRpcError } from "../jsonrpc/index.js";
import type { CallToolResult } from "../protocol/types.js";
import type { Params } from "./params.js";

/**
 * The size in bytes of an encoded result past `limit` (0: none), else
 * undefined. A UTF-16 unit is at most 3 bytes of UTF-8, so an ordinary
 * result is never counted.
 */
export function sizeOver(json: string, limit: number): number | undefined {
  if (limit === 0 || json.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(json, "utf8");
  return bytes > limit ? bytes : undefined;
}

/**
 * What answers a request whose result was too large to send: a tool's
 * caller gets an `isError` result; any other request, the -32603 thrown.
 */
export function tooLarge(
  method: string,
  params: Params,
  bytes: number,
  limit: number,
): CallToolResult {
  const message = `${subjectOf(method, params)} returned a result of ${bytes} bytes, more than the server's limit of ${limit} bytes, so it was not sent; return less (a page, a summary, a resource link), or raise maxResultBytes in mcp-dir.config.ts or createServer (0: no limit)`;
  if (method === "tools/call") return errorResult(message);
  throw new JsonRpcError(ErrorCode.InternalError, message);
}

/** Why a result could not be sent: `error` is what JSON.stringify threw. */
export function cannotEncode(method: string, params: Params, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  const target = params.name ?? params.uri;
  const of = typeof target === "string" ? ` of ${JSON.stringify(target)}` : "";
  return `${method}${of} returned a result that cannot be sent as JSON: ${why}; return plain JSON values (no BigInt, no cycles)`;
}

function subjectOf(method: string, params: Params): string {
  if (method === "tools/call") return `Tool ${JSON.stringify(params.name)}`;
  if (method === "prompts/get") return `Prompt ${JSON.stringify(params.name)}`;
  if (method === "resources/read") return `Resource ${JSON.stringify(params.uri)}`;
  return method;
}
