import type { ToolAnnotations } from "../protocol/types.js";
import { DEFINITION_BRAND } from "./brand.js";
import type { HandlerContext } from "./context.js";
import { DefinitionError } from "./definition-error.js";
import { scopesProblem } from "./scopes.js";
import { timeoutProblem } from "./timeout.js";

/** The definition a middleware runs around, as it may read it. */
export interface DefinitionInfo {
  readonly kind: "tool" | "prompt" | "resource";
  readonly name: string;
  /** The file that defined it, relative to the server directory; undefined when made in code. */
  readonly file: string | undefined;
  readonly title?: string;
  /** A tool's annotations (readOnlyHint, destructiveHint, ...). */
  readonly annotations?: ToolAnnotations;
  /** A fixed resource's URI, or a template's URI template. */
  readonly uri?: string;
}

/** What a middleware receives: the handler's `ctx`, the definition, and the arguments. */
export interface MiddlewareContext extends HandlerContext {
  readonly definition: DefinitionInfo;
  /**
   * The arguments as the client sent them: a tool's or a prompt's arguments,
   * a resource template's variables. Set it to change what the handler gets;
   * the definition's schema validates whatever it holds after the middleware.
   */
  args: Record<string, unknown>;
  /** The URI being read, for a resource. */
  readonly uri?: string;
}

/**
 * Runs the rest of the chain (the next middleware, then the handler) and
 * resolves to its result, normalised as a client will see it: a tool's
 * `CallToolResult`, a prompt's `GetPromptResult`, a resource's
 * `ReadResourceResult`.
 */
export type Next = () => Promise<unknown>;

/**
 * Code around every handler of a subtree. It may return early (what it
 * returns becomes the result, as a handler's return would), call `next()`
 * and return or change what that resolves to, or throw (the same outcome as
 * a handler's throw). Returning nothing after `next()` keeps its result.
 */
export type Middleware = (ctx: MiddlewareContext, next: Next) => unknown;

export interface MiddlewareConfig {
  /** The middleware itself; a folder file may only declare what its subtree shares. */
  run?: Middleware;
  /**
   * The time limit (ms) of every handler in the subtree that sets none
   * itself; a deeper folder's wins. 0 for no limit.
   */
  timeoutMs?: number;
  /**
   * OAuth scopes every definition of the subtree needs, besides its own
   * `scopes` (and those of the folders above).
   */
  scopes?: readonly string[];
}

export interface MiddlewareDefinition extends MiddlewareConfig {
  readonly [DEFINITION_BRAND]: "middleware";
}

/**
 * A middleware: the default export of a `_middleware.ts` (wrapping its
 * folder's subtree; at the server directory's root, everything), or one of
 * the config's `middleware`.
 */
export function defineMiddleware(middleware: Middleware | MiddlewareConfig): MiddlewareDefinition {
  const config = typeof middleware === "function" ? { run: middleware } : { ...middleware };
  const problem = middlewareProblem(config);
  if (problem !== undefined) throw new DefinitionError("The middleware is invalid", [problem]);
  return Object.defineProperty(config, DEFINITION_BRAND, {
    value: "middleware",
    enumerable: false,
  }) as MiddlewareDefinition;
}

export function isMiddlewareDefinition(value: unknown): value is MiddlewareDefinition {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[DEFINITION_BRAND] === "middleware"
  );
}

/** What is wrong with a middleware, or undefined. */
export function middlewareProblem(config: MiddlewareConfig): string | undefined {
  if (config.run !== undefined && typeof config.run !== "function") {
    return "run must be a function: run: async (ctx, next) => next()";
  }
  const badTimeout = timeoutProblem(config.timeoutMs);
  if (badTimeout) return `timeoutMs ${badTimeout}`;
  const badScopes = scopesProblem(config.scopes);
  if (badScopes) return `scopes ${badScopes}`;
  if (config.run === undefined && config.timeoutMs === undefined && config.scopes === undefined) {
    return "it does nothing: give run: async (ctx, next) => next(), or what the folder shares (timeoutMs, scopes)";
  }
  return undefined;
}
