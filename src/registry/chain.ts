import type { HandlerContext } from "../define/context.js";
import type { DefinitionInfo, Middleware, MiddlewareContext } from "../define/middleware.js";

/** How one kind runs a definition, and makes a result of what a middleware returns or throws. */
export interface ChainEnds<R> {
  /** The definition itself: arguments validated, handler run, result normalised. */
  run(args: Record<string, unknown>): Promise<R>;
  /** What a middleware returned instead of its `next()`'s result, normalised as a handler's return. */
  settle(value: unknown): Promise<R>;
  /** What a middleware's throw becomes: a result (a tool's isError), or the throw itself. */
  fail(error: unknown): R;
  /** The URI being read, for a resource: the middleware's `ctx.uri`. */
  readonly uri?: string;
}

/** A request's context as a chain lends it to its middleware. */
type ChainContext = HandlerContext & {
  definition?: DefinitionInfo;
  args?: Record<string, unknown>;
  uri?: string;
};

/**
 * A definition's middleware composed into one function, once, when the
 * registry changes: each call walks the list with no further allocation than
 * its `next` functions. The handler gets the very context the middleware
 * saw, so what they leave in `ctx.locals` reaches it.
 */
export type Chain = <R>(
  ctx: HandlerContext,
  args: Record<string, unknown>,
  ends: ChainEnds<R>,
) => Promise<R>;

export function composeChain(middleware: readonly Middleware[], info: DefinitionInfo): Chain {
  return <R>(ctx: HandlerContext, args: Record<string, unknown>, ends: ChainEnds<R>) => {
    const lent = ctx as ChainContext;
    lent.definition = info;
    lent.args = args;
    lent.uri = ends.uri;
    const step = (index: number): Promise<R> => {
      const current = middleware[index];
      // A call stopped while a middleware held it does not reach its handler: the definition
      // asks (define/stopped.ts), and next() rejects with why.
      if (current === undefined) return ends.run(lent.args ?? {});
      // Calling next() again gives the same result rather than running the rest twice.
      let rest: Promise<R> | undefined;
      const next = () => {
        rest ??= step(index + 1);
        return rest;
      };
      let value: unknown;
      try {
        value = current(lent as MiddlewareContext, next);
      } catch (error) {
        return settled(() => ends.fail(error));
      }
      // `return next()`: the rest's outcome, as it is, with no turn of its own.
      if (value === rest && rest !== undefined) return rest;
      return Promise.resolve(value).then(
        async (returned) => {
          if (rest !== undefined) {
            const result = await rest;
            if (returned === undefined || returned === result) return result;
          }
          return ends.settle(returned);
        },
        (error: unknown) => ends.fail(error),
      );
    };
    return step(0);
  };
}

/** What `make` returns, or throws, as a promise: a middleware's throw settles as its async throw would. */
function settled<R>(make: () => R | Promise<R>): Promise<R> {
  try {
    return Promise.resolve(make());
  } catch (error) {
    return Promise.reject(error);
  }
}
