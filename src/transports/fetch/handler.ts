import type { McpServer } from "../../server/index.js";
import { type HttpHandlerOptions, resolveHttpOptions } from "../../settings/http-options.js";
import { requestTimeout } from "../../settings/listener-limits.js";
import { HttpDoor } from "../http/door.js";
import { fetchBody, requestHead } from "./request.js";
import { FetchResponseWriter } from "./response-writer.js";

export interface FetchHandlerOptions extends HttpHandlerOptions {
  /**
   * Keep 2025 sessions (GET streams, subscriptions, requests to the client),
   * as a long-lived process can. Default false: every request is served on
   * its own, as a runtime that may answer each from another isolate
   * (Workers, `deno serve --parallel`) must.
   */
  sessions?: boolean;
  /**
   * How long a request's body may take to arrive, in ms from the call.
   * Default 30 s; past it the client gets 408. 0: no limit (where the
   * runtime bounds it itself). The runtime reads the headers before the
   * handler is called: their time is its to bound.
   */
  requestTimeoutMs?: number;
}

/** The server as a web-standard handler. */
export interface FetchHandler {
  (request: Request): Promise<Response>;
  /** Ends every session; afterwards every request is answered 503. */
  close(): Promise<void>;
  /** With `auth.issuer`: resolves once its metadata and keys are read (see HttpHandler.ready). */
  ready(): Promise<void>;
}

/**
 * The server as a web-standard handler, `(Request) => Promise<Response>`, for
 * Deno, Bun, Cloudflare Workers and any runtime with fetch types. It is the
 * same door as `createHttpHandler`, with the same checks and defaults (only
 * loopback Host names unless `allowedHosts` says more). 2026-07-28 requests
 * are served as on node:http; without `sessions`, a 2025 client is served in
 * the stateless form its revisions allow: each request answered on its own,
 * no server push (GET is 405).
 */
export function createFetchHandler(
  server: McpServer,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const { sessions, requestTimeoutMs, ...httpOptions } = options;
  const door = new HttpDoor(
    server,
    resolveHttpOptions(httpOptions),
    fetchBody(requestTimeout(requestTimeoutMs)),
    sessions ? "sessions" : "sessionless",
  );
  const handler = (request: Request): Promise<Response> => {
    const res = new FetchResponseWriter(request.signal);
    door.handle(requestHead(request), res);
    return res.response;
  };
  return Object.assign(handler, { close: () => door.close(), ready: () => door.ready() });
}
