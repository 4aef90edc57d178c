import { defineMiddleware } from "mcp-dir";

/**
 * tools/text/_middleware.ts runs around every tool under tools/text/: a
 * policy kept where the files are. It may answer in the tool's place (here,
 * for a text with nothing in it), change the arguments, or time the call.
 */
export default defineMiddleware(async (ctx, next) => {
  const { text } = ctx.args;
  if (typeof text === "string" && text.trim() === "") {
    return "There is nothing to measure: send some text.";
  }
  const started = performance.now();
  const result = await next();
  ctx.log.debug({ tool: ctx.definition.name, ms: Math.round(performance.now() - started) });
  return result;
});
