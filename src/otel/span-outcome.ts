import { type Context, type Span, SpanStatusCode, trace } from "@opentelemetry/api";

/**
 * How one tracing channel's payloads become spans: `start` makes the span
 * and returns the context that what the channel traces runs in; `error`
 * and `asyncEnd` record how it ended.
 */
export interface ChannelSpans<P> {
  start(payload: P): Context;
  error(payload: P): void;
  asyncEnd(payload: P): void;
}

/**
 * A channel's spans, each kept by its payload from `start` to `asyncEnd`:
 * `open` makes one under its parent, `close` records its outcome before it ends.
 */
export function channelSpans<P extends { error?: unknown }>(
  open: (payload: P) => { span: Span; parent: Context },
  close: (span: Span, payload: P) => void,
): ChannelSpans<P> {
  const spans = new WeakMap<P, Span>();
  return {
    start(payload) {
      const { span, parent } = open(payload);
      spans.set(payload, span);
      return trace.setSpan(parent, span);
    },
    error(payload) {
      const span = spans.get(payload);
      if (span) recordError(span, payload.error);
    },
    asyncEnd(payload) {
      const span = spans.get(payload);
      if (!span) return;
      spans.delete(payload);
      close(span, payload);
      span.end();
    },
  };
}

/** A `CallToolResult` with `isError: true`: the conventions' `tool_error`. */
export function isToolError(result: unknown): boolean {
  return (
    typeof result === "object" &&
    result !== null &&
    (result as { isError?: unknown }).isError === true
  );
}

/**
 * A low-cardinality name for what was thrown: a JSON-RPC error's code (as
 * the conventions record codes), a system error's code, else its class. A
 * DOMException (what an aborted signal throws) is named, not numbered: its
 * `code` is the legacy number of its name (20 for AbortError), or 0.
 */
export function errorType(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { code, name } = error as { code?: unknown; name?: unknown };
    const coded = !(error instanceof DOMException);
    if (coded && (typeof code === "number" || (typeof code === "string" && code !== ""))) {
      return String(code);
    }
    if (typeof name === "string" && name !== "") return name;
  }
  return "_OTHER";
}

export function recordError(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setAttribute("error.type", errorType(error));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}
