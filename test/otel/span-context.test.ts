/**
 * Where a request's span sits in a trace, through the server's own entry for
 * a 2026-07-28 request (`serveRequest`) and a 2025 session over stdio: the
 * caller's `traceparent` is its parent and the span current where the
 * request arrived (an HTTP server's, say) is linked; without one, that
 * current span is the parent. And `disable()` stops it all.
 */
import { type DiagLogger, diag, propagation, SpanKind, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { afterAll, describe, expect, it } from "vitest";
import { defineTool, encodeMessage, type JsonRpcRequest } from "../../src/index.js";
import { instrument } from "../../src/otel/index.js";
import { CALLER, useSdk } from "./helpers/sdk.js";
import { connect, tracedServer } from "./helpers/traced-server.js";

const exporter = useSdk();
let instrumentation = instrument();
afterAll(() => instrumentation.disable());

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function echo(meta: Record<string, unknown> = {}): JsonRpcRequest {
  return {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "echo", arguments: { message: "hi" }, _meta: { ...ENVELOPE, ...meta } },
  };
}

const server = tracedServer();
const serve = (request: JsonRpcRequest) => server.serveRequest(request, { notify() {} });

/** Serves `request` inside an active span, as HTTP instrumentation would have it. */
async function serveInside(request: JsonRpcRequest) {
  return trace.getTracer("http").startActiveSpan("POST /mcp", async (http) => {
    await serve(request);
    http.end();
    return http.spanContext();
  });
}

function requestSpan(name = "tools/call echo") {
  const found = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0];
}

describe("a request span's parent", () => {
  it("is the span current where the request arrived, when _meta carries no traceparent", async () => {
    const http = await serveInside(echo());
    const span = requestSpan();
    expect(span?.parentSpanContext?.spanId).toBe(http.spanId);
    expect(span?.spanContext().traceId).toBe(http.traceId);
    expect(span?.links).toEqual([]);
  });

  it("is the caller's traceparent, the span it arrived in linked", async () => {
    const http = await serveInside(
      echo({ traceparent: CALLER.traceparent, tracestate: CALLER.tracestate }),
    );
    const span = requestSpan();
    expect(span?.parentSpanContext).toMatchObject({
      traceId: CALLER.traceId,
      spanId: CALLER.spanId,
      isRemote: true,
    });
    expect(span?.links.map((link) => link.context.spanId)).toEqual([http.spanId]);
  });

  it("is none without either: the request starts a trace", async () => {
    await serve(echo());
    const span = requestSpan();
    expect(span?.parentSpanContext).toBeUndefined();
    // serveRequest is no transport: it says nothing of the network.
    expect(span?.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "jsonrpc.request.id": "7",
      "gen_ai.tool.name": "echo",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2026-07-28",
    });
  });

  it("ignores a traceparent that is not one", async () => {
    const http = await serveInside(echo({ traceparent: "00-not-a-trace-01" }));
    expect(requestSpan()?.parentSpanContext?.spanId).toBe(http.spanId);
  });
});

describe("every request is a span", () => {
  it("a method refused before it runs too", async () => {
    await serve({ jsonrpc: "2.0", id: 8, method: "nosuch/method", params: { _meta: ENVELOPE } });
    const span = requestSpan("nosuch/method");
    expect(span?.attributes["rpc.response.status_code"]).toBe("-32601");
    expect(span?.attributes["error.type"]).toBeUndefined();
  });

  it("a definition added while traced too: its chain is composed anew", async () => {
    await serve(echo());
    server.add(defineTool({ name: "later", description: "Added later", handler: () => "ok" }));
    await serve({ ...echo(), params: { name: "later", _meta: ENVELOPE } });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain("tool later");
  });

  it("initialize, with the protocol version it negotiated and its session", async () => {
    const client = await connect("2025-11-25", "stdio");
    await client.close();
    expect(requestSpan("initialize")?.attributes).toEqual({
      "mcp.method.name": "initialize",
      "jsonrpc.request.id": "0",
      "mcp.protocol.version": "2025-11-25",
      "mcp.session.id": expect.any(String),
      "network.transport": "pipe",
    });
  });
});

describe("a failure to trace", () => {
  it("is logged through OpenTelemetry's diag, and the request answered as ever", async () => {
    const logged: unknown[][] = [];
    const quiet = () => {};
    const logger: DiagLogger = {
      error: (...args) => logged.push(args),
      warn: quiet,
      info: quiet,
      debug: quiet,
      verbose: quiet,
    };
    diag.setLogger(logger);
    propagation.disable();
    propagation.setGlobalPropagator({
      inject() {},
      extract() {
        throw new Error("a broken propagator");
      },
      fields: () => [],
    });
    try {
      const response = await serve(echo({ traceparent: CALLER.traceparent }));
      if (!response) throw new Error("the request was not answered");
      expect(JSON.parse(encodeMessage(response))).toMatchObject({
        result: { content: [{ type: "text", text: "hi" }] },
      });
      expect(logged.map(([message, error]) => [message, (error as Error).message])).toEqual([
        ["mcp-dir/otel could not trace a request", "a broken propagator"],
      ]);
    } finally {
      propagation.disable();
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      diag.disable();
    }
  });
});

describe("instrument()", () => {
  it("returns the same instrumentation while it is on", () => {
    expect(instrument()).toBe(instrumentation);
  });

  it("makes no span once disabled, and again once called again", async () => {
    instrumentation.disable();
    await serve(echo());
    expect(exporter.getFinishedSpans()).toEqual([]);
    instrumentation = instrument();
    await serve(echo());
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
      "tool echo",
      "middleware (server)",
      "tools/call echo",
    ]);
  });
});
