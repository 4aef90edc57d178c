import type { HandlerContext } from "../define/context.js";
import type { DefinitionInfo, Middleware } from "../define/middleware.js";
import { thrownBehindResult } from "../define/thrown.js";
import { type HandlerTrace, handlerChannel } from "../tracing/channels.js";
import { type Chain, composeChain } from "./chain.js";
import type { Compose } from "./served.js";

/**
 * The chain as it runs while something subscribes to `mcp-dir:handler`: each
 * middleware's run and the handler's published on it, so a trace shows them
 * nested inside one another. Composed once, the first time the registry is
 * traced after it changed, never per call; a definition with no middleware
 * gets one too, around its handler alone.
 */
export const tracedChain: Compose = (layers, info) => {
  const handler = <R>(ctx: HandlerContext, run: () => Promise<R>) => {
    const payload: HandlerTrace = { type: "handler", definition: info };
    return published(
      ctx,
      async () => {
        const result = await run();
        // A tool's throw is answered as an isError result: the span still gets the throw.
        const thrown = thrownBehindResult(result);
        if (thrown !== undefined) payload.thrown = thrown;
        return result;
      },
      payload,
    );
  };
  if (layers.length === 0) {
    return ((ctx, args, ends) => handler(ctx, () => ends.run(args))) as Chain;
  }
  const chain = composeChain(
    layers.map(({ run, source }) => tracedMiddleware(run, source, info)),
    info,
  );
  return ((ctx, args, ends) =>
    chain(ctx, args, { ...ends, run: (given) => handler(ctx, () => ends.run(given)) })) as Chain;
};

function tracedMiddleware(run: Middleware, source: string, definition: DefinitionInfo): Middleware {
  return (ctx, next) =>
    published(ctx, async () => run(ctx, next), { type: "middleware", definition, source });
}

/** One run published, with its time limit's message when the limit stopped it before it ended. */
function published<R>(
  ctx: HandlerContext,
  run: () => Promise<R>,
  payload: HandlerTrace,
): Promise<R> {
  const watched = async () => {
    try {
      return await run();
    } finally {
      const timedOut = timeLimitPassed(ctx.signal);
      if (timedOut !== undefined) payload.timedOut = timedOut;
    }
  };
  return handlerChannel ? handlerChannel.tracePromise(watched, payload) : watched();
}

/**
 * The time limit's message once it has passed: the server aborts `ctx.signal`
 * with a TimeoutError naming it (`server/time-limit.ts`), a cancellation
 * with another error.
 */
function timeLimitPassed(signal: AbortSignal): string | undefined {
  if (!signal.aborted) return undefined;
  const { name, message } = (signal.reason ?? {}) as { name?: unknown; message?: unknown };
  return name === "TimeoutError" && typeof message === "string" ? message : undefined;
}
