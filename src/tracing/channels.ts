import type { TracingChannel } from "node:diagnostics_channel";
import type { DefinitionInfo } from "../define/middleware.js";
import type { JsonRpcRequest, JsonRpcResponse } from "../jsonrpc/index.js";

/**
 * How a request's bytes travel, in OpenTelemetry's words: `network.transport`
 * ("pipe" for stdio, "tcp" for HTTP) and `network.protocol.name` ("http").
 */
export interface Network {
  readonly transport: string;
  readonly protocol?: string;
}

/**
 * What `tracing:mcp-dir:request:*` carries: one JSON-RPC request the server
 * answers, in either era, from its arrival to its response.
 */
export interface RequestTrace {
  readonly request: JsonRpcRequest;
  readonly era: "stateful" | "stateless";
  /** The 2025 session it belongs to; `initialize` sets its protocolVersion while it runs. */
  readonly session?: { readonly id: string; readonly protocolVersion: string | undefined };
  /** How it came; undefined for a transport that does not say (`serveRequest`, your own). */
  readonly network?: Network | undefined;
  /** What the method returned, before it was encoded (a tool's result with its `isError`). */
  returned?: unknown;
  /** The response sent; undefined when the request was cancelled and nothing was. */
  result?: JsonRpcResponse | undefined;
  /** What its caller was told when its handler's time limit passed (the run was stopped). */
  timedOut?: string;
  error?: unknown;
}

/**
 * What `tracing:mcp-dir:handler:*` carries: one run of a middleware (until
 * what it returned settles, its `next()` included) or of a definition's
 * handler (arguments validated, handler run, result normalised).
 */
export interface HandlerTrace {
  readonly type: "middleware" | "handler";
  readonly definition: DefinitionInfo;
  /** A middleware's `_middleware` file, or "(server)" for the server's own. */
  readonly source?: string;
  result?: unknown;
  error?: unknown;
  /** What a tool's handler threw, when its caller got an isError result instead. */
  thrown?: unknown;
  /**
   * The time limit's message, when the limit passed before this run ended:
   * its signal was aborted, and what it returned went to no one.
   */
  timedOut?: string;
}

export const REQUEST_CHANNEL = "mcp-dir:request";
export const HANDLER_CHANNEL = "mcp-dir:handler";

type DiagnosticsChannel = typeof import("node:diagnostics_channel");
type BuiltinModules = { getBuiltinModule?: (id: string) => unknown };

/**
 * Looked up rather than imported, so that a bundle still loads on a runtime
 * without it (a Worker without nodejs_compat), where nothing is traced.
 */
const diagnostics = (globalThis as { process?: BuiltinModules }).process?.getBuiltinModule?.(
  "node:diagnostics_channel",
) as DiagnosticsChannel | undefined;

/**
 * The tracing channels the server publishes on, only while something
 * subscribes: without a subscriber a request pays a `hasSubscribers` check
 * (a property read when nothing subscribes: a wrapper around it would cost ten
 * times as much). Undefined where the runtime has none; where it cannot tell
 * it has subscribers (Bun), `hasSubscribers` is undefined and nothing is published.
 */
function channelOf<P extends object>(name: string): TracingChannel<unknown, P> | undefined {
  return diagnostics?.tracingChannel?.(name) as TracingChannel<unknown, P> | undefined;
}

export const requestChannel = channelOf<RequestTrace>(REQUEST_CHANNEL);
export const handlerChannel = channelOf<HandlerTrace>(HANDLER_CHANNEL);
