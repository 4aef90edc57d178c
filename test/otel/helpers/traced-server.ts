/**
 * A server as the loader would fill it (definitions and a folder's
 * `_middleware.ts` keyed by their files, plus server-wide middleware), served
 * in this process so that its spans reach the test's in-memory exporter:
 * over stdio through a pair of in-memory streams, or over Streamable HTTP on
 * 127.0.0.1, to the official clients of both eras.
 */
import { PassThrough } from "node:stream";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { trace } from "@opentelemetry/api";
import { z } from "zod";
import {
  createServer,
  defineMiddleware,
  definePrompt,
  defineResource,
  defineTool,
  type McpServer,
  serveHttp,
  serveStdio,
} from "../../../src/index.js";

export function tracedServer(): McpServer {
  const server = createServer({
    name: "traced",
    version: "1.0.0",
    middleware: [(_ctx, next) => next()],
  });
  const entries = {
    "tools/admin/_middleware.ts": defineMiddleware((ctx, next) => {
      // What an aborted signal throws: a DOMException, whose legacy numeric code means nothing here.
      if (ctx.args.confirm === false)
        throw new DOMException("purging was called off", "AbortError");
      if (ctx.args.confirm !== true) throw new Error("confirm first");
      return next();
    }),
    "tools/echo.ts": defineTool({
      name: "echo",
      description: "Echoes",
      input: { message: z.string() },
      handler: ({ message }) => message,
    }),
    "tools/fail.ts": defineTool({
      name: "fail",
      description: "Throws",
      handler: () => {
        throw new Error("boom");
      },
    }),
    // The author's own span, made through the API, lands inside the handler's.
    "tools/admin/purge.ts": defineTool({
      name: "admin_purge",
      description: "Purges, once confirmed",
      input: { confirm: z.boolean() },
      handler: () =>
        trace.getTracer("author").startActiveSpan("purge the cache", (span) => {
          span.end();
          return "purged";
        }),
    }),
    // A folder's time limit, and a tool that runs past it, ignores its signal's
    // abort and returns once stopped: what it returns is dropped.
    "tools/slow/_middleware.ts": defineMiddleware({ timeoutMs: 50 }),
    "tools/slow/nap.ts": defineTool({
      name: "slow_nap",
      description: "Naps until stopped",
      handler: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener("abort", () => resolve("woke up"), { once: true });
        }),
    }),
    "prompts/greet.ts": definePrompt({
      name: "greet",
      arguments: { who: z.string() },
      get: ({ who }) => `Hello, ${who}`,
    }),
    "prompts/broken.ts": definePrompt({
      name: "broken",
      get: () => {
        throw new Error("the template is gone");
      },
    }),
    "resources/today.ts": defineResource({
      name: "today",
      uri: "memo://today",
      read: () => "nothing planned",
    }),
  };
  server.registry.update(
    new Map(Object.entries(entries).map(([source, definition]) => [source, [{ definition }]])),
  );
  return server;
}

export type Era = "2025-11-25" | "2026-07-28";
export type Wire = "stdio" | "http";

/** What the tests call: both SDKs' clients have these, with `_meta` passed through. */
export interface TracedClient {
  callTool(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  getPrompt(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  readResource(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The Mcp-Session-Id of a 2025 session over HTTP; undefined over stdio, which has no header. */
  sessionId(): string | undefined;
  close(): Promise<void>;
}

const INFO = { name: "traces-test-client", version: "1.0.0" };

/** A client of `era` connected to a fresh traced server over `wire`, in this process. */
export async function connect(era: Era, wire: Wire): Promise<TracedClient> {
  const server = tracedServer();
  const client =
    era === "2025-11-25"
      ? new ClientV1(INFO, { capabilities: {} })
      : new ClientV2(INFO, {
          versionNegotiation: { mode: { pin: "2026-07-28" } },
          capabilities: {},
        } as ConstructorParameters<typeof ClientV2>[1]);
  let stop: () => Promise<void>;
  let sessionId = (): string | undefined => undefined;
  if (wire === "stdio") {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const served = serveStdio(server, { input: toServer, output: fromServer });
    // The SDK's stdio transport over the other ends of the streams: newline-delimited JSON both ways.
    await client.connect(new StdioServerTransport(fromServer, toServer));
    stop = async () => {
      await client.close();
      toServer.end();
      await served;
    };
  } else {
    const serving = await serveHttp(server, { port: 0 });
    const url = new URL(serving.url);
    const transport = era === "2025-11-25" ? new HttpTransportV1(url) : new HttpTransportV2(url);
    await client.connect(transport);
    sessionId = () => transport.sessionId;
    stop = async () => {
      await client.close();
      await serving.close();
    };
  }
  // Both clients have these three; each SDK types them its own way.
  const calls = client as unknown as Pick<TracedClient, "callTool" | "getPrompt" | "readResource">;
  return {
    callTool: (params) => calls.callTool(params),
    getPrompt: (params) => calls.getPrompt(params),
    readResource: (params) => calls.readResource(params),
    sessionId: () => sessionId(),
    close: () => stop(),
  };
}
