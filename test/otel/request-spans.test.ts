/**
 * mcp-dir/otel with the real OpenTelemetry SDK: every request a SERVER span
 * as OpenTelemetry's semantic conventions for MCP describe it, a child of
 * the caller's `traceparent` (`params._meta`), with a span per middleware and
 * one for the handler inside it. Both eras (the official v1 client at
 * 2025-11-25, the v2 client pinned to 2026-07-28), over stdio and HTTP, as
 * `network.transport` tells them apart.
 */
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { instrument } from "../../src/otel/index.js";
import { CALLER, tree, useSdk } from "./helpers/sdk.js";
import { connect, type Era, type TracedClient, type Wire } from "./helpers/traced-server.js";

const exporter = useSdk();
const instrumentation = instrument();
afterAll(() => instrumentation.disable());

const traced = { _meta: { traceparent: CALLER.traceparent, tracestate: CALLER.tracestate } };

/** The one finished span named `name`. */
function span(name: string): ReadableSpan {
  const found = exporter.getFinishedSpans().filter((s) => s.name === name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0] as ReadableSpan;
}

const ROWS: [Wire, Era][] = [
  ["stdio", "2025-11-25"],
  ["stdio", "2026-07-28"],
  ["http", "2025-11-25"],
  ["http", "2026-07-28"],
];

describe.each(ROWS)("over %s at %s", (wire, era) => {
  let client: TracedClient;
  beforeAll(async () => {
    client = await connect(era, wire);
  });
  afterAll(() => client.close());

  /** What every request span of this row carries besides its own. */
  const common = () => ({
    "mcp.protocol.version": era,
    "jsonrpc.request.id": expect.stringMatching(/^\S+$/),
    // 2025 sessions: over HTTP, the Mcp-Session-Id the client holds.
    ...(era === "2025-11-25" && { "mcp.session.id": client.sessionId() ?? expect.any(String) }),
    ...(wire === "stdio"
      ? { "network.transport": "pipe" }
      : { "network.transport": "tcp", "network.protocol.name": "http" }),
  });

  it("a tool call is a SERVER span under the caller's, middleware and handler inside it", async () => {
    const result = await client.callTool({
      name: "admin_purge",
      arguments: { confirm: true },
      ...traced,
    });
    expect(result.content).toEqual([{ type: "text", text: "purged" }]);
    expect(tree(exporter.getFinishedSpans(), CALLER.traceId)).toEqual([
      "purge the cache ← tool admin_purge",
      "tool admin_purge ← middleware tools/admin/_middleware.ts",
      "middleware tools/admin/_middleware.ts ← middleware (server)",
      "middleware (server) ← tools/call admin_purge",
      `tools/call admin_purge ← remote ${CALLER.spanId}`,
    ]);
    const request = span("tools/call admin_purge");
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(request.spanContext().traceState?.serialize()).toBe(CALLER.tracestate);
    expect(request.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "admin_purge",
      "gen_ai.operation.name": "execute_tool",
      ...common(),
    });
    const handler = span("tool admin_purge");
    expect(handler.kind).toBe(SpanKind.INTERNAL);
    expect(handler.attributes).toEqual({
      "mcp_dir.definition.kind": "tool",
      "mcp_dir.definition.name": "admin_purge",
      "code.file.path": "tools/admin/purge.ts",
    });
    expect(span("middleware tools/admin/_middleware.ts").attributes).toEqual({
      "mcp_dir.definition.kind": "tool",
      "mcp_dir.definition.name": "admin_purge",
      "mcp_dir.middleware.source": "tools/admin/_middleware.ts",
    });
  });

  it("a handler's throw: isError, so error.type tool_error on its span and the request's, and the exception on its own", async () => {
    const result = await client.callTool({ name: "fail", ...traced });
    expect(result.isError).toBe(true);
    for (const name of ["tools/call fail", "tool fail"]) {
      expect(span(name).attributes["error.type"]).toBe("tool_error");
      expect(span(name).status).toEqual({ code: SpanStatusCode.ERROR });
    }
    expect(
      span("tool fail").events.map((event) => [
        event.name,
        event.attributes?.["exception.message"],
      ]),
    ).toEqual([["exception", "boom"]]);
    expect(span("middleware (server)").status).toEqual({ code: SpanStatusCode.UNSET });
  });

  it("a call its folder's timeoutMs stops: the spans still running then are ERROR, saying so", async () => {
    const result = await client.callTool({ name: "slow_nap", ...traced });
    expect(result.isError).toBe(true);
    const [said] = result.content as { text: string }[];
    expect(said?.text).toMatch(
      /within the time limit of 50 ms that tools\/slow\/_middleware.ts sets/,
    );
    // The client is answered at the limit; the run ends once it has seen the abort, in no set order.
    await vi.waitFor(() => span("middleware (server)"));
    expect(tree(exporter.getFinishedSpans(), CALLER.traceId).sort()).toEqual([
      "middleware (server) ← tools/call slow_nap",
      "tool slow_nap ← middleware (server)",
      `tools/call slow_nap ← remote ${CALLER.spanId}`,
    ]);
    for (const name of ["tool slow_nap", "middleware (server)"]) {
      expect(span(name).status).toEqual({ code: SpanStatusCode.ERROR, message: said?.text });
      expect(span(name).attributes["error.type"]).toBe("timeout");
    }
    // The request span says what its client got: an isError result, with its message.
    const request = span("tools/call slow_nap");
    expect(request.attributes["error.type"]).toBe("tool_error");
    expect(request.status).toEqual({ code: SpanStatusCode.ERROR, message: said?.text });
  });

  it("a middleware's throw: its span records the exception; the handler never runs", async () => {
    const result = await client.callTool({ name: "admin_purge", arguments: {}, ...traced });
    expect(result.isError).toBe(true);
    expect(tree(exporter.getFinishedSpans(), CALLER.traceId)).toEqual([
      "middleware tools/admin/_middleware.ts ← middleware (server)",
      "middleware (server) ← tools/call admin_purge",
      `tools/call admin_purge ← remote ${CALLER.spanId}`,
    ]);
    const middleware = span("middleware tools/admin/_middleware.ts");
    expect(middleware.status).toEqual({ code: SpanStatusCode.ERROR, message: "confirm first" });
    expect(middleware.attributes["error.type"]).toBe("Error");
    expect(middleware.events.map((event) => event.attributes?.["exception.message"])).toEqual([
      "confirm first",
    ]);
    expect(span("tools/call admin_purge").attributes["error.type"]).toBe("tool_error");
  });

  it("a DOMException thrown (an abort's reason, say) is named by its name, not its legacy code", async () => {
    const result = await client.callTool({
      name: "admin_purge",
      arguments: { confirm: false },
      ...traced,
    });
    expect(result.isError).toBe(true);
    const middleware = span("middleware tools/admin/_middleware.ts");
    expect(middleware.attributes["error.type"]).toBe("AbortError");
    expect(middleware.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: "purging was called off",
    });
  });

  it("a prompt is named for it; one that throws is error.type -32603 with the JSON-RPC message", async () => {
    await client.getPrompt({ name: "greet", arguments: { who: "Ada" }, ...traced });
    expect(span("prompts/get greet").attributes).toEqual({
      "mcp.method.name": "prompts/get",
      "gen_ai.prompt.name": "greet",
      ...common(),
    });
    expect(span("prompt greet").status).toEqual({ code: SpanStatusCode.UNSET });

    const refused = await client.getPrompt({ name: "broken", ...traced }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    const broken = span("prompts/get broken");
    expect(broken.attributes).toMatchObject({
      "error.type": "-32603",
      "rpc.response.status_code": "-32603",
    });
    expect(broken.status.code).toBe(SpanStatusCode.ERROR);
    expect(broken.status.message).toMatch(/the template is gone/);
    expect(span("prompt broken").status).toEqual({
      code: SpanStatusCode.ERROR,
      message: "the template is gone",
    });
  });

  it("a resource read carries its URI in mcp.resource.uri, not in its name", async () => {
    await client.readResource({ uri: "memo://today", ...traced });
    expect(tree(exporter.getFinishedSpans(), CALLER.traceId)).toEqual([
      "resource today ← middleware (server)",
      "middleware (server) ← resources/read",
      `resources/read ← remote ${CALLER.spanId}`,
    ]);
    expect(span("resources/read").attributes).toEqual({
      "mcp.method.name": "resources/read",
      "mcp.resource.uri": "memo://today",
      ...common(),
    });
  });

  it("an unknown tool is the caller's error: its code recorded, the span no error", async () => {
    const outcome = await client.callTool({ name: "nosuch", ...traced }).catch((e: Error) => e);
    expect(outcome).toBeInstanceOf(Error);
    const request = span("tools/call nosuch");
    expect(request.attributes["rpc.response.status_code"]).toBe("-32602");
    expect(request.attributes["error.type"]).toBeUndefined();
    expect(request.status).toEqual({ code: SpanStatusCode.UNSET });
  });
});
