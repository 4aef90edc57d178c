// Traces: give this file to node before mcp-dir starts, and every request is a span,
// printed here as it ends (over stdio, on stderr: stdout is the protocol's).
//   NODE_OPTIONS="--import ./example-server/otel.mjs" npx mcp-dir serve example-server --http
// `serve` sees the tracer provider registered below and makes the spans itself. A real
// setup exports them instead (NodeSDK and an OTLP exporter: see the README's "Traces").
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] }),
);
