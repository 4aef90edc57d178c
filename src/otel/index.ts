/**
 * `mcp-dir/otel`: OpenTelemetry spans for every request an mcp-dir server
 * answers, made from what the server publishes on its diagnostics_channel
 * tracing channels (`mcp-dir:request`, `mcp-dir:handler`). The server itself
 * loads nothing of OpenTelemetry; this entry needs `@opentelemetry/api`.
 */
import type { AsyncLocalStorage } from "node:async_hooks";
import { type TracingChannel, tracingChannel } from "node:diagnostics_channel";
import { type Context, context, diag, type TracerProvider, trace } from "@opentelemetry/api";
import {
  HANDLER_CHANNEL,
  type HandlerTrace,
  REQUEST_CHANNEL,
  type RequestTrace,
} from "../tracing/channels.js";
import { handlerSpans } from "./handler-spans.js";
import { requestSpans } from "./request-spans.js";
import type { ChannelSpans } from "./span-outcome.js";

export type { HandlerTrace, Network, RequestTrace } from "../tracing/channels.js";

export interface InstrumentOptions {
  /** Where spans go. Default: the provider registered globally (what an SDK's `start()` registers). */
  tracerProvider?: TracerProvider;
}

export interface Instrumentation {
  /** Stops making spans; the server stops publishing once nothing else subscribes. */
  disable(): void;
}

/**
 * What `bindStore` binds, in the place of an AsyncLocalStorage: it runs what a
 * channel traces inside the context `start` made, through OpenTelemetry's
 * own API, so the span is current for whatever runs inside (a middleware's
 * span, the handler's, an HTTP client's) whichever context manager is registered.
 */
const OPEN_TELEMETRY_CONTEXT = {
  run: <T>(active: Context, inside: () => T): T => context.with(active, inside),
} as unknown as AsyncLocalStorage<Context>;

const NOOP = () => {};

/**
 * What a channel's subscriber throws is rethrown by Node as an uncaught
 * exception, which would end the server: a failure to trace (a propagator
 * that throws, say) goes to OpenTelemetry's diagnostic logger instead.
 */
function harmless<P, R>(step: (payload: P) => R, otherwise: () => R): (payload: P) => R {
  return (payload) => {
    try {
      return step(payload);
    } catch (error) {
      diag.error("mcp-dir/otel could not trace a request", error);
      return otherwise();
    }
  };
}

let current: Instrumentation | undefined;

/**
 * Turns spans on for every mcp-dir server in this process: one SERVER span
 * per request (OpenTelemetry's semantic conventions for MCP, a child of the
 * `traceparent` its `_meta` carries) with a span per middleware and one for
 * the handler inside it. Call it once, before or after the SDK starts;
 * calling it again while it is on changes nothing.
 */
export function instrument(options: InstrumentOptions = {}): Instrumentation {
  if (current) return current;
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  const tracer = provider.getTracer("mcp-dir");
  const stop = [
    bind(tracingChannel<Context, RequestTrace>(REQUEST_CHANNEL), requestSpans(tracer)),
    bind(tracingChannel<Context, HandlerTrace>(HANDLER_CHANNEL), handlerSpans(tracer)),
  ];
  const instrumentation: Instrumentation = {
    disable() {
      if (current !== instrumentation) return;
      current = undefined;
      for (const unbind of stop) unbind();
    },
  };
  current = instrumentation;
  return instrumentation;
}

function bind<P extends object>(
  channel: TracingChannel<Context, P>,
  spans: ChannelSpans<P>,
): () => void {
  const subscribers = {
    start: NOOP,
    end: NOOP,
    asyncStart: NOOP,
    asyncEnd: harmless(spans.asyncEnd, NOOP),
    error: harmless(spans.error, NOOP),
  };
  // Untraced, what the channel traces runs in the context it was called in.
  channel.start.bindStore(
    OPEN_TELEMETRY_CONTEXT,
    harmless(spans.start, () => context.active()),
  );
  channel.subscribe(subscribers);
  return () => {
    channel.start.unbindStore(OPEN_TELEMETRY_CONTEXT);
    channel.unsubscribe(subscribers);
  };
}
