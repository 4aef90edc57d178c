import {
  type Attributes,
  context,
  isSpanContextValid,
  type Link,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { claimedVersion } from "../protocol/meta.js";
import type { RequestTrace } from "../tracing/channels.js";
import { type ChannelSpans, channelSpans, isToolError } from "./span-outcome.js";

/**
 * JSON-RPC codes that say the caller sent a request the server could not
 * serve, which OpenTelemetry's MCP conventions do not count as the server's
 * errors: parse error, invalid request, method not found, invalid params
 * (an unknown tool too), resource not found. Every other code is one.
 */
const CALLER_CODES = new Set([-32700, -32600, -32601, -32602, -32002]);

/** The methods whose `uri` param is the resource's URI (`mcp.resource.uri`). */
const RESOURCE_METHODS = new Set([
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
]);

/** Reads W3C trace context (`traceparent`, `tracestate`, `baggage`) from a request's `_meta`. */
const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === "string" ? value : undefined;
  },
};

/**
 * One SERVER span per request, as OpenTelemetry's semantic conventions for
 * MCP describe it: named `{mcp.method.name} {target}` (the tool or prompt),
 * a child of the trace context the request's `params._meta` carries (and
 * linked to the context it arrived in, an HTTP server span say), else of
 * that context.
 */
export function requestSpans(tracer: Tracer): ChannelSpans<RequestTrace> {
  return channelSpans((payload) => {
    const ambient = context.active();
    const meta = metaOf(payload.request.params);
    const parent = meta ? propagation.extract(ambient, meta, META_GETTER) : ambient;
    const links: Link[] = [];
    const arrivedIn = trace.getSpanContext(ambient);
    if (arrivedIn && isSpanContextValid(arrivedIn) && trace.getSpanContext(parent) !== arrivedIn) {
      links.push({ context: arrivedIn });
    }
    const { name, attributes } = describe(payload);
    return {
      span: tracer.startSpan(name, { kind: SpanKind.SERVER, attributes, links }, parent),
      parent,
    };
  }, finish);
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/** The span's name and what is known of the request when it arrives. */
function describe({ request, era, session, network }: RequestTrace): {
  name: string;
  attributes: Attributes;
} {
  const { method, id } = request;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const attributes: Attributes = { "mcp.method.name": method };
  if (id !== null) attributes["jsonrpc.request.id"] = String(id);
  let target: string | undefined;
  if (typeof params.name === "string") {
    if (method === "tools/call") {
      target = params.name;
      attributes["gen_ai.tool.name"] = target;
      attributes["gen_ai.operation.name"] = "execute_tool";
    } else if (method === "prompts/get") {
      target = params.name;
      attributes["gen_ai.prompt.name"] = target;
    }
  }
  if (RESOURCE_METHODS.has(method) && typeof params.uri === "string") {
    attributes["mcp.resource.uri"] = params.uri;
  }
  const version = era === "stateless" ? claimedVersion(params) : session?.protocolVersion;
  if (typeof version === "string") attributes["mcp.protocol.version"] = version;
  // 2026-07-28 has no session: the conventions keep mcp.session.id for 2025 ones.
  if (session) attributes["mcp.session.id"] = session.id;
  if (network) {
    attributes["network.transport"] = network.transport;
    if (network.protocol !== undefined) attributes["network.protocol.name"] = network.protocol;
  }
  return { name: target === undefined ? method : `${method} ${target}`, attributes };
}

/** What the response says: its error code, and whether the server failed (status ERROR). */
function finish(span: Span, { request, session, result, returned, timedOut }: RequestTrace): void {
  // initialize negotiates the session's version while it runs.
  if (request.method === "initialize" && session?.protocolVersion !== undefined) {
    span.setAttribute("mcp.protocol.version", session.protocolVersion);
  }
  if (result !== undefined && "error" in result) {
    const { code, message } = result.error;
    span.setAttribute("rpc.response.status_code", String(code));
    if (!CALLER_CODES.has(code)) {
      span.setAttribute("error.type", String(code));
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
  } else if (request.method === "tools/call" && isToolError(returned)) {
    span.setAttribute("error.type", "tool_error");
    // The time limit's isError result says which limit passed, as a prompt's -32603 error does.
    span.setStatus(
      timedOut === undefined
        ? { code: SpanStatusCode.ERROR }
        : { code: SpanStatusCode.ERROR, message: timedOut },
    );
  }
}
