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
  const handler = <R>(run: () => Promise<R>) => {
    const payload: HandlerTrace = { type: "handler", definition: info };
    return published(async () => {
      const result = await run();
      // A tool's throw is answered as an isError result: the span still gets the throw.
      const thrown = thrownBehindResult(result);
      if (thrown !== undefined) payload.thrown = thrown;
      return result;
    }, payload);
  };
  if (layers.length === 0) {
    return ((_ctx, args, ends) => handler(() => ends.run(args))) as Chain;
  }
  const chain = composeChain(
    layers.map(({ run, source }) => tracedMiddleware(run, source, info)),
    info,
  );
  return ((ctx, args, ends) =>
    chain(ctx, args, { ...ends, run: (given) => handler(() => ends.run(given)) })) as Chain;
};

function tracedMiddleware(run: Middleware, source: string, definition: DefinitionInfo): Middleware {
  return (ctx, next) =>
    published(async () => run(ctx, next), { type: "middleware", definition, source });
}

function published<R>(run: () => Promise<R>, payload: HandlerTrace): Promise<R> {
  return handlerChannel ? handlerChannel.tracePromise(run, payload) : run();
}
