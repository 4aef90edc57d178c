import { McpErrorCode } from "../../protocol/errors.js";
import type { ResponseHeaders, ResponseWriter } from "./exchange.js";

export const TRANSPORT_ERROR = McpErrorCode.TransportError;
export const SESSION_NOT_FOUND = McpErrorCode.SessionNotFound;

/**
 * An HTTP error whose body is a JSON-RPC error response without an `id`, as the
 * 2025-11-25 transport page allows for refusals that answer no particular request.
 */
export function sendError(
  res: ResponseWriter,
  status: number,
  code: number,
  message: string,
  headers?: ResponseHeaders,
): void {
  sendJson(res, status, JSON.stringify({ jsonrpc: "2.0", error: { code, message } }), headers);
}

export function sendJson(
  res: ResponseWriter,
  status: number,
  body: string,
  headers?: ResponseHeaders,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

export function sendEmpty(res: ResponseWriter, status: number, headers?: ResponseHeaders): void {
  res.writeHead(status, headers);
  res.end();
}
