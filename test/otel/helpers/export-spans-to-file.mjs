// Given to `node --import`, as an application sets OpenTelemetry up: the real SDK,
// registered globally, each span written as one JSON line to the file named by
// MCP_DIR_SPANS_FILE the moment it ends. mcp-dir is not told: `serve` must see it.
import { appendFileSync } from "node:fs";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

const file = process.env.MCP_DIR_SPANS_FILE;

const toFile = {
  export(spans, done) {
    for (const span of spans) {
      const { traceId, spanId } = span.spanContext();
      const line = {
        name: span.name,
        kind: span.kind,
        traceId,
        spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        attributes: span.attributes,
        status: span.status,
      };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    }
    done({ code: ExportResultCode.SUCCESS });
  },
  async shutdown() {},
};

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(toFile)] }),
);
