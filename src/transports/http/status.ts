import { ErrorCode, type JsonRpcResponse } from "../../jsonrpc/index.js";
import { McpErrorCode } from "../../protocol/errors.js";

/** JSON-RPC error codes a 2026-07-28 client fixes by changing its request: HTTP 400. */
const CLIENT_ERRORS: ReadonlySet<number> = new Set([
  ErrorCode.ParseError,
  ErrorCode.InvalidRequest,
  ErrorCode.InvalidParams,
  McpErrorCode.HeaderMismatch,
  McpErrorCode.MissingRequiredClientCapability,
  McpErrorCode.UnsupportedProtocolVersion,
]);

/** The HTTP status of a 2026-07-28 response: 404 for a method that does not exist, 400 for what the client must fix. */
export function statusOf(response: JsonRpcResponse): number {
  if (!("error" in response)) return 200;
  const { code } = response.error;
  if (code === ErrorCode.MethodNotFound) return 404;
  return CLIENT_ERRORS.has(code) ? 400 : 200;
}
