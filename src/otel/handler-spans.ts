import {
  type Attributes,
  context,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from "@opentelemetry/api";
import type { HandlerTrace } from "../tracing/channels.js";
import { type ChannelSpans, channelSpans, isToolError } from "./span-outcome.js";

/**
 * One INTERNAL span per middleware run and per handler run, inside the
 * request's span and inside one another as they nest: `middleware
 * tools/admin/_middleware.ts`, then `tool echo` for the definition itself.
 */
export function handlerSpans(tracer: Tracer): ChannelSpans<HandlerTrace> {
  return channelSpans(
    (payload) => {
      const parent = context.active();
      const { definition, source } = payload;
      const attributes: Attributes = {
        "mcp_dir.definition.kind": definition.kind,
        "mcp_dir.definition.name": definition.name,
      };
      let name: string;
      if (payload.type === "middleware") {
        name = `middleware ${source}`;
        attributes["mcp_dir.middleware.source"] = source;
      } else {
        name = `${definition.kind} ${definition.name}`;
        if (definition.file !== undefined) attributes["code.file.path"] = definition.file;
      }
      return {
        span: tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent),
        parent,
      };
    },
    (span, payload) => {
      const { thrown, timedOut } = payload;
      // A tool's handler that throws (or gets arguments it refuses) resolves to an isError result.
      if (payload.type === "handler" && isToolError(payload.result)) {
        span.setAttribute("error.type", "tool_error");
        span.setStatus({ code: SpanStatusCode.ERROR });
        if (thrown !== undefined) {
          span.recordException(thrown instanceof Error ? thrown : String(thrown));
        }
      }
      // Stopped by its time limit, whatever it returned or threw once stopped.
      if (timedOut !== undefined) {
        span.setAttribute("error.type", "timeout");
        span.setStatus({ code: SpanStatusCode.ERROR, message: timedOut });
      }
    },
  );
}
