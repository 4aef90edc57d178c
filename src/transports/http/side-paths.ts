import type { AuthGate } from "./auth/gate.js";
import type { RequestHead, ResponseWriter } from "./exchange.js";
import { protectedResourceMetadata } from "./metadata.js";
import { sendError, sendJson, TRANSPORT_ERROR } from "./responses.js";

/**
 * The door's paths besides the MCP endpoint: `/health`, and the RFC 9728
 * protected-resource metadata. Both answer GET and HEAD, behind the Host and
 * Origin checks, without a token.
 */

function readOnly(req: RequestHead, res: ResponseWriter, what: string): boolean {
  if (req.method === "GET" || req.method === "HEAD") return true;
  sendError(res, 405, TRANSPORT_ERROR, `Method Not Allowed: use GET ${what}`, {
    allow: "GET, HEAD",
  });
  return false;
}

/** 200 while serving, 503 once closing: what a load balancer asks. */
export function answerHealth(req: RequestHead, res: ResponseWriter, closing: boolean): void {
  if (!readOnly(req, res, "/health")) return;
  if (closing) sendJson(res, 503, '{"status":"closing"}');
  else sendJson(res, 200, '{"status":"ok"}');
}

/** The metadata a client follows from a 401: published only when a token is required. */
export function answerMetadata(
  req: RequestHead,
  res: ResponseWriter,
  gate: AuthGate | undefined,
  resourceName: string,
): void {
  if (!readOnly(req, res, req.url ?? "")) return;
  if (gate === undefined) {
    sendError(
      res,
      404,
      TRANSPORT_ERROR,
      "Not Found: this server does not require authorization, so it publishes no protected-resource metadata",
    );
  } else {
    sendJson(res, 200, JSON.stringify(protectedResourceMetadata(req, gate, resourceName)));
  }
}
