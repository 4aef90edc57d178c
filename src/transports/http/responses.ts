import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { McpErrorCode } from "../../protocol/errors.js";

export const TRANSPORT_ERROR = McpErrorCode.TransportError;
export const SESSION_NOT_FOUND = McpErrorCode.SessionNotFound;

/**
 * An HTTP error whose body is a JSON-RPC error response without an `id`, as the
 * 2025-11-25 transport page allows for refusals that answer no particular request.
 */
export function sendError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers?: OutgoingHttpHeaders,
): void {
  sendJson(res, status, JSON.stringify({ jsonrpc: "2.0", error: { code, message } }), headers);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: string,
  headers?: OutgoingHttpHeaders,
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

export function sendEmpty(
  res: ServerResponse,
  status: number,
  headers?: OutgoingHttpHeaders,
): void {
  res.writeHead(status, headers);
  res.end();
}
