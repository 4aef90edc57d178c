import {
  ErrorCode,
  encodeMessage,
  failure,
  isRequest,
  isResponse,
  type JsonRpcRequest,
  type JsonRpcResponse,
  parseMessage,
} from "../../jsonrpc/index.js";
import { McpErrorCode } from "../../protocol/errors.js";
import { claimedVersion } from "../../protocol/meta.js";
import { InFlight, type McpServer } from "../../server/index.js";
import { headerMismatch } from "../http/mcp-headers.js";
import { serveSessionlessPost } from "../http/sessionless-post.js";
import { statusOf } from "../http/status.js";

export interface FetchHandlerOptions {
  /** The MCP endpoint. Default "/mcp". */
  path?: string;
  /** When set, every request needs `Authorization: Bearer <authToken>` (401 otherwise). */
  authToken?: string;
  /** Largest request body, in bytes. Default 4 MiB; larger bodies get 413. */
  maxBodyBytes?: number;
}

export type FetchHandler = (request: Request) => Promise<Response>;

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/** A JSON-RPC error that answers no particular request, as an HTTP error. */
function refuse(
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): Response {
  return json(status, JSON.stringify({ jsonrpc: "2.0", error: { code, message } }), headers);
}

function json(status: number, body: string, headers?: Record<string, string>): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * The server as a web-standard handler, `(Request) => Promise<Response>`, for
 * Deno, Bun, Cloudflare Workers and any runtime with fetch types: no process
 * state between requests. 2026-07-28 requests are served as on node:http
 * (JSON, or SSE when something comes before the response); a 2025 client is
 * served in the stateless form its revisions allow: no session, no server
 * push (GET is 405), each request answered on its own.
 */
export function createFetchHandler(
  server: McpServer,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const path = options.path ?? "/mcp";
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const expectedAuth = options.authToken === undefined ? undefined : `Bearer ${options.authToken}`;
  return async (request) => {
    if (new URL(request.url).pathname !== path) {
      return new Response("Not Found", { status: 404 });
    }
    if (expectedAuth !== undefined && request.headers.get("authorization") !== expectedAuth) {
      return refuse(
        401,
        McpErrorCode.TransportError,
        "Unauthorized: send Authorization: Bearer <token>",
        {
          "www-authenticate": "Bearer",
        },
      );
    }
    if (request.method !== "POST") {
      return refuse(
        405,
        McpErrorCode.TransportError,
        `Method Not Allowed: this endpoint keeps no sessions, so there is no stream to ${request.method === "GET" ? "open" : "end"}; POST each request`,
        { allow: "POST" },
      );
    }
    const body = await request.text();
    if (new TextEncoder().encode(body).length > maxBodyBytes) {
      return refuse(
        413,
        ErrorCode.InvalidRequest,
        `Payload Too Large: at most ${maxBodyBytes} bytes`,
      );
    }
    const parsed = parseMessage(body);
    if (parsed.kind === "invalid") return json(400, encodeMessage(parsed.error));
    if (parsed.kind === "batch") {
      return refuse(
        400,
        ErrorCode.InvalidRequest,
        "Invalid Request: POST one JSON-RPC message, not a batch",
      );
    }
    const { message } = parsed;
    if (isResponse(message)) {
      return refuse(
        400,
        McpErrorCode.TransportError,
        "Bad Request: this server sends no requests, so it takes no responses",
      );
    }
    // A notification (initialized, cancelled) has nothing to act on without a session or stream.
    if (!isRequest(message)) return new Response(null, { status: 202 });
    const modern =
      claimedVersion(message.params as Record<string, unknown> | undefined) !== undefined;
    return modern
      ? serveModern(server, message, request)
      : serveSessionlessPost(
          server,
          message,
          request.headers.get("mcp-protocol-version") ?? undefined,
        ).then((response) => json(200, encodeMessage(response)));
  };
}

function serveModern(
  server: McpServer,
  message: JsonRpcRequest,
  request: Request,
): Promise<Response> {
  const mismatch = headerMismatch(Object.fromEntries(request.headers), message, server.registry);
  if (mismatch !== undefined) {
    const error = failure(message.id, McpErrorCode.HeaderMismatch, `Header mismatch: ${mismatch}`);
    return Promise.resolve(json(400, encodeMessage(error)));
  }
  const inFlight = new InFlight();
  request.signal.addEventListener("abort", () => inFlight.cancel("The client went away"), {
    once: true,
  });
  const encoder = new TextEncoder();
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  let settled = false;
  let answer: (response: Response) => void = () => {};
  const answered = new Promise<Response>((resolve) => {
    answer = resolve;
  });
  const event = (data: string) => stream?.enqueue(encoder.encode(`data: ${data}\n\n`));
  const channel = {
    notify(method: string, params: Record<string, unknown>) {
      if (settled) return;
      if (!stream) {
        const body = new ReadableStream<Uint8Array>({
          start: (controller) => {
            stream = controller;
          },
          cancel: () => inFlight.cancel("The client closed the response stream"),
        });
        answer(
          new Response(body, {
            status: 200,
            headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
          }),
        );
      }
      event(encodeMessage({ jsonrpc: "2.0", method, params }));
    },
  };
  void server
    .serveStateless(message, channel, inFlight, request.signal)
    .then((response: JsonRpcResponse | undefined) => {
      settled = true;
      if (stream) {
        if (response) event(encodeMessage(response));
        stream.close();
      } else if (response) {
        answer(json(statusOf(response), encodeMessage(response)));
      } else {
        answer(new Response(null, { status: 204 }));
      }
    });
  return answered;
}
