import { McpErrorCode } from "../../protocol/errors.js";
import type { ResponseHeaders, ResponseWriter } from "./exchange.js";
import type { Refusal } from "./security.js";

export const TRANSPORT_ERROR = McpErrorCode.TransportError;
export const SESSION_NOT_FOUND = McpErrorCode.SessionNotFound;

export const UNKNOWN_SESSION =
  "Session not found: it ended or never existed; send initialize again without an Mcp-Session-Id";
export const ANOTHER_CALLERS_SESSION =
  "Forbidden: this session was opened by another caller (the access token names someone else); send initialize without an Mcp-Session-Id to open your own";

/** A GET whose Last-Event-ID names no stream, or one whose events are all gone. */
export function nothingToResume(lastEventId: string): string {
  return `Bad Request: nothing to resume after Last-Event-ID ${JSON.stringify(lastEventId)}: the stream is unknown or its events are gone; open the stream again without Last-Event-ID`;
}

/**
 * A JSON-RPC error response without an `id`, as the 2025-11-25 transport page
 * allows for refusals that answer no particular request.
 */
export function refusalBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", error: { code, message } });
}

/** An HTTP error whose body is a refusal (`refusalBody`). */
export function sendError(
  res: ResponseWriter,
  status: number,
  code: number,
  message: string,
  headers?: ResponseHeaders,
): void {
  sendJson(res, status, refusalBody(code, message), headers);
}

/** A request refused by one of the door's checks. */
export function sendRefusal(res: ResponseWriter, refusal: Refusal): void {
  sendError(res, refusal.status, refusal.code, refusal.message, refusal.headers);
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
