/**
 * The real OpenTelemetry SDK, set up in this process as an application would:
 * a tracer provider whose spans land in an in-memory exporter, the
 * AsyncLocalStorage context manager and the W3C trace-context propagator,
 * each registered globally.
 */
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach } from "vitest";

/**
 * The SDK, registered before this file's tests and shut down after them;
 * its exporter is emptied before each test.
 */
export function useSdk(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
  });
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });
  beforeEach(() => exporter.reset());
  return exporter;
}

/** A caller's span, as its `traceparent` names it. */
export const CALLER = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  tracestate: "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
};

/** Each span of the trace `traceId` as "name ← parent name", in the order they ended. */
export function tree(spans: readonly ReadableSpan[], traceId: string): string[] {
  const inTrace = spans.filter((span) => span.spanContext().traceId === traceId);
  const byId = new Map(inTrace.map((span) => [span.spanContext().spanId, span.name]));
  return inTrace.map((span) => {
    const parent = span.parentSpanContext;
    const parentName = parent ? (byId.get(parent.spanId) ?? `remote ${parent.spanId}`) : "root";
    return `${span.name} ← ${parentName}`;
  });
}
