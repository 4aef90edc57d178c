import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type HttpServeOptions,
  type HttpServing,
  type ServerOptions,
  serveHttp,
} from "../../src/index.js";
import { createFixture, type Fixture } from "./fixtures/server.js";

export interface Running extends Fixture {
  serving: HttpServing;
  url: string;
}

/**
 * Serves a fresh fixture on a free port; retry is short so resumption tests
 * run fast. `settings` are the fixture server's own options, beside the HTTP ones.
 */
export async function startFixture(
  options: HttpServeOptions = {},
  settings: Partial<ServerOptions> = {},
): Promise<Running> {
  const fixture = createFixture(settings);
  const serving = await serveHttp(fixture.server, { port: 0, retryMs: 10, ...options });
  return { ...fixture, serving, url: serving.url };
}

export const CLIENT_CAPABILITIES = { elicitation: {}, sampling: {}, roots: { listChanged: true } };

export async function connectClient(
  url: string,
  options: { fetch?: typeof fetch } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client(
    { name: "http-test-client", version: "1.0.0" },
    { capabilities: CLIENT_CAPABILITIES },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: options.fetch });
  await client.connect(transport);
  return { client, transport };
}

export const PROTOCOL_VERSION = "2025-11-25";

/** The headers a well-behaved client sends on a POST. */
export function postHeaders(sessionId?: string): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
  };
  if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
  return headers;
}

export function post(url: string, body: unknown, headers: Record<string, string>) {
  return fetch(url, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: "raw", version: "1.0.0" },
  },
};

/** initialize + notifications/initialized over raw HTTP; returns the session id. */
export async function openSession(
  url: string,
  protocolVersion = PROTOCOL_VERSION,
): Promise<string> {
  const init = { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } };
  const response = await post(url, init, postHeaders());
  if (response.status !== 200) throw new Error(`initialize got ${response.status}`);
  await response.text();
  const sessionId = response.headers.get("mcp-session-id");
  if (!sessionId) throw new Error("initialize returned no Mcp-Session-Id");
  const initialized = await post(
    url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    postHeaders(sessionId),
  );
  await initialized.text();
  return sessionId;
}

export { type SseEvent, SseReader } from "../helpers/sse-reader.js";

/** A promise with its resolve function, for callbacks that signal the test. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over node:http, for headers fetch will not send (Host) or bodies it frames itself. */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string | number>;
    body?: string | Buffer;
    /** Writes the body in chunks without a Content-Length. */
    chunked?: boolean;
  } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: options.path ?? target.pathname,
        method: options.method ?? "POST",
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (options.chunked && options.body !== undefined) {
      const body = Buffer.from(options.body);
      for (let at = 0; at < body.length; at += 1024) req.write(body.subarray(at, at + 1024));
      req.end();
    } else {
      req.end(options.body);
    }
  });
}

/** What a POST that waited for `100 Continue` got: whether it came, then the answer. */
export interface ContinuedResponse extends RawResponse {
  continued: boolean;
}

/**
 * A POST with `Expect: 100-continue` that sends its body only once the server
 * says 100 Continue, as curl does past 1 MB; its Content-Length says what it
 * would send. Resolves at the final answer, whether the body went or not.
 */
export function expectContinue(
  url: string,
  headers: Record<string, string | number>,
  body: string,
): Promise<ContinuedResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = httpRequest({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: "POST",
      headers: { ...headers, "content-length": Buffer.byteLength(body), expect: "100-continue" },
      agent: false,
    });
    req.on("continue", () => {
      continued = true;
      req.end(body);
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        resolve({
          continued,
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        });
        req.destroy();
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.flushHeaders();
  });
}
