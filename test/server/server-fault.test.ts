/**
 * Whatever fails on the way to a handler or back is answered: -32603 for
 * that request, saying the fault is the server's, and the trace on stderr as
 * mcp-dir's, never the author's. No client input reaches such a failure any
 * more (messages nesting too deep, the last one, are refused where they
 * enter), so the failure is planted in the server itself: a registry that
 * throws where the 2026 entry reads it before dispatch, and, for the 2025
 * session path, a `warn` sink that throws from inside dispatch's own catch.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  createServer,
  definePrompt,
  defineTool,
  type HttpServing,
  type McpServer,
  serveHttp,
  serveStdio,
} from "../../src/index.js";
import { Inbox } from "./helpers/inbox.js";

// biome-ignore lint/suspicious/noExplicitAny: messages are arbitrary JSON under test.
type Json = any;

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const CALL = { name: "echo", arguments: {}, _meta: META };

const serverFault = (id: number, method: string) => ({
  jsonrpc: "2.0",
  id,
  error: {
    code: -32603,
    message: `Internal error: the server failed while serving ${method}; the fault is the server's, not the request's, and its log has the details`,
  },
});

const faultLine = (method: string, id: number, thrown: string) =>
  `internal error while serving ${method} (request id ${id}): a fault of mcp-dir, not of your code; please report it with this trace: Error: ${thrown}\n    at `;

/** A server with one tool whose registry throws when asked for its tools, as a bug of ours would. */
function brokenRegistry(): { server: McpServer; warnings: string[] } {
  const warnings: string[] = [];
  const server = createServer({
    name: "broken",
    version: "1.0.0",
    warn: (line) => warnings.push(line),
  }).add(defineTool({ name: "echo", description: "Echo", handler: () => "echo" }));
  Object.defineProperty(server.registry, "tools", {
    get() {
      throw new Error("a bug in the registry");
    },
  });
  return { server, warnings };
}

/** A server whose log sink throws the first time it is used, and a prompt whose failure is logged. */
function brokenSink(): { server: McpServer; warnings: string[] } {
  const warnings: string[] = [];
  const server = createServer({
    name: "broken",
    version: "1.0.0",
    warn: (line) => {
      warnings.push(line);
      if (warnings.length === 1) throw new Error("the log sink failed");
    },
  }).add(
    definePrompt({
      name: "fails",
      description: "Throws",
      get: () => {
        throw new Error("prompt failed");
      },
    }),
  );
  return { server, warnings };
}

/** `server` over stdio through in-memory streams: send a line, wait for the answer to an id. */
function overStdio(server: McpServer) {
  const input = new PassThrough();
  const output = new PassThrough({ encoding: "utf8" });
  const inbox = new Inbox<Json>();
  let rest = "";
  output.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) inbox.push(JSON.parse(line));
  });
  const served = serveStdio(server, { input, output });
  return {
    send: (message: Json) => input.write(`${JSON.stringify(message)}\n`),
    answer: (id: number) => inbox.waitFor((m) => m.id === id, `the answer to ${id}`),
    end: async () => {
      input.end();
      await served;
    },
  };
}

const servings: HttpServing[] = [];
afterEach(async () => {
  await Promise.all(servings.splice(0).map((serving) => serving.close()));
});

async function overHttp(server: McpServer): Promise<string> {
  const serving = await serveHttp(server, { port: 0 });
  servings.push(serving);
  return serving.url;
}

function post(url: string, body: Json, headers: Record<string, string>) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe("a 2026-07-28 request that fails on the server's side before its handler", () => {
  it("is answered -32603 through McpServer.serveRequest", async () => {
    const { server, warnings } = brokenRegistry();
    const request = { jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: CALL };
    expect(await server.serveRequest(request, { notify: () => {} })).toEqual(
      serverFault(1, "tools/call"),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(faultLine("tools/call", 1, "a bug in the registry"));
  });

  it("is answered -32603 over stdio", async () => {
    const { server, warnings } = brokenRegistry();
    const stdio = overStdio(server);
    stdio.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: CALL });
    expect(await stdio.answer(1)).toEqual(serverFault(1, "tools/call"));
    await stdio.end();
    expect(warnings[0]).toContain(faultLine("tools/call", 1, "a bug in the registry"));
  });

  it("is answered -32603 over HTTP", async () => {
    const { server, warnings } = brokenRegistry();
    const url = await overHttp(server);
    const response = await post(
      url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: CALL },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(serverFault(1, "tools/call"));
    expect(warnings[0]).toContain(faultLine("tools/call", 1, "a bug in the registry"));
  });

  it("is answered -32603 when reporting the failure itself fails", async () => {
    const { server } = brokenSink();
    const params = { name: "fails", _meta: META };
    const request = { jsonrpc: "2.0" as const, id: 1, method: "prompts/get", params };
    expect(await server.serveRequest(request, { notify: () => {} })).toEqual(
      serverFault(1, "prompts/get"),
    );
  });
});

describe("a 2025 session's request that fails on the server's side after its handler", () => {
  const INITIALIZE = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1.0.0" },
    },
  };
  const GET = { jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "fails" } };

  it("is answered -32603 over stdio", async () => {
    const { server, warnings } = brokenSink();
    const stdio = overStdio(server);
    stdio.send(INITIALIZE);
    await stdio.answer(1);
    stdio.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    stdio.send(GET);
    expect(await stdio.answer(2)).toEqual(serverFault(2, "prompts/get"));
    await stdio.end();
    expect(warnings[1]).toContain(faultLine("prompts/get", 2, "the log sink failed"));
  });

  it("is answered -32603 over HTTP", async () => {
    const { server, warnings } = brokenSink();
    const url = await overHttp(server);
    const headers = { "mcp-protocol-version": "2025-11-25" };
    const opened = await post(url, INITIALIZE, headers);
    await opened.text();
    const session = { ...headers, "mcp-session-id": opened.headers.get("mcp-session-id") ?? "" };
    await (
      await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session)
    ).text();
    const response = await post(url, GET, session);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(serverFault(2, "prompts/get"));
    expect(warnings[1]).toContain(faultLine("prompts/get", 2, "the log sink failed"));
  });
});
