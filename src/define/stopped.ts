import type { HandlerContext } from "./context.js";

/**
 * Why a request's handler must not start now, or undefined: the server's
 * context says so (`stopped`: cancelled, or past its time limit) without
 * making `ctx.signal`. Asked once the arguments are checked, which awaits:
 * a cancel read meanwhile (in the same read as its call, say) would
 * otherwise start a handler that no one will hear.
 */
export function stoppedBeforeStart(ctx: HandlerContext): Error | undefined {
  return (ctx as { readonly stopped?: Error }).stopped;
}
