import {
  encodeMessage,
  failure,
  isRequest,
  isResponse,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from "../../jsonrpc/index.js";
import { McpErrorCode } from "../../protocol/errors.js";
import { InFlight, type McpServer, requiredScopesOf } from "../../server/index.js";
import type { Caller } from "./caller.js";
import { type HeaderMap, HTTP_NETWORK, type ResponseWriter } from "./exchange.js";
import { headerMismatch } from "./mcp-headers.js";
import { sendError, sendJson, TRANSPORT_ERROR } from "./responses.js";
import { SseConnection } from "./sse.js";
import { statusOf } from "./status.js";
import { atExpiry } from "./token-expiry.js";

const SERVER_CLOSED = "The server closed before this request completed; send it again";

/**
 * Serves one 2026-07-28 POST: no session. A request is answered as plain
 * JSON, or as an SSE stream once something related to it (progress, a log, a
 * listen stream's notifications) comes first. Closing the stream cancels it.
 * When the door closes (`atClose`), a request still in flight is answered with
 * an error and its handler's signal aborted; a listen stream is ended by the
 * engine, with its own result, as it is when the caller's token stops being
 * accepted. A request's own stream is not ended so: it is the answer to a
 * call the token was good for when it came.
 */
export function serveStatelessPost(
  server: McpServer,
  headers: HeaderMap,
  res: ResponseWriter,
  message: JsonRpcMessage,
  {
    atClose,
    keepAliveMs,
    caller,
  }: {
    /** Calls `callback` when the door closes; returns what stops waiting. */
    atClose: (callback: () => void) => () => void;
    keepAliveMs: number;
    caller: Caller;
  },
): void {
  if (isResponse(message)) {
    sendError(
      res,
      400,
      TRANSPORT_ERROR,
      "Bad Request: a 2026-07-28 client sends requests, never responses",
    );
    return;
  }
  if (!isRequest(message)) {
    // No client notification means anything over 2026-07-28 HTTP; accept and drop it.
    res.writeHead(202);
    res.end();
    return;
  }
  const { id } = message;
  const mismatch = headerMismatch(headers, message, server.registry);
  if (mismatch !== undefined) {
    const error = failure(id, McpErrorCode.HeaderMismatch, `Header mismatch: ${mismatch}`);
    sendJson(res, 400, encodeMessage(error));
    return;
  }
  let stream: SseConnection | undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  let settled = false;
  let stopWaiting = () => {};
  const inFlight = new InFlight();
  const cancel = () => inFlight.cancel("The client closed the response stream");
  res.once("close", () => {
    if (!settled) cancel();
  });
  const channel = {
    network: HTTP_NETWORK,
    notify(method: string, params: Record<string, unknown>) {
      if (settled || res.destroyed) return;
      if (!stream) {
        stream = new SseConnection(res, undefined, cancel);
        // A listen stream can stay quiet for long: comment lines keep proxies from cutting it.
        if (keepAliveMs > 0) {
          const open = stream;
          keepAlive = setInterval(() => open.comment("keep-alive"), keepAliveMs);
          keepAlive.unref();
        }
      }
      stream.event(undefined, encodeMessage({ jsonrpc: "2.0", method, params }));
    },
  };
  const answer = (response: JsonRpcResponse | undefined) => {
    if (settled) return;
    settled = true;
    clearInterval(keepAlive);
    stopWaiting();
    if (!response) {
      stream?.end();
      if (!stream && !res.headersSent) res.destroy();
    } else if (stream) {
      stream.event(undefined, encodeMessage(response));
      stream.end();
    } else {
      const scopes = caller.forbidden && requiredScopesOf(response);
      if (scopes) sendJson(res, 403, encodeMessage(response), caller.forbidden?.(scopes));
      else sendJson(res, statusOf(response), encodeMessage(response));
    }
  };
  let closing: AbortSignal | undefined;
  if (message.method === "subscriptions/listen") {
    // The engine ends a listen stream with its own result when this aborts: at the door's
    // close, or when the caller's token stops being accepted (the client listens again).
    const controller = new AbortController();
    closing = controller.signal;
    const end = () => controller.abort();
    const stopClose = atClose(end);
    const stopExpiry = atExpiry(caller.until, end);
    stopWaiting = () => {
      stopClose();
      stopExpiry();
    };
  } else {
    stopWaiting = atClose(() => {
      inFlight.cancel(SERVER_CLOSED);
      answer(failure(id, TRANSPORT_ERROR, SERVER_CLOSED));
    });
  }
  void server.serveStateless(message, channel, inFlight, closing, caller.auth).then(answer);
}
