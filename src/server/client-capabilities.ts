import type { ClientCapabilities } from "../protocol/types.js";

/** What a handler's ask needs the client to have declared. */
export type ClientNeed = "elicitation.form" | "elicitation.url" | "sampling" | "roots";

/**
 * The capability a client lacks for `need`, named as the author reads it in
 * `ctx.client.capabilities`, with the `requiredCapabilities` of a -32021
 * error; undefined when it has it. An `elicitation` object with no mode in it
 * means form mode only.
 */
export function missingCapability(
  capabilities: ClientCapabilities,
  need: ClientNeed,
): { name: string; required: ClientCapabilities } | undefined {
  if (need === "sampling" || need === "roots") {
    return capabilities[need] === undefined ? { name: need, required: { [need]: {} } } : undefined;
  }
  const elicitation = capabilities.elicitation as Record<string, unknown> | undefined;
  if (need === "elicitation.url") {
    return elicitation?.url === undefined
      ? { name: need, required: { elicitation: { url: {} } } }
      : undefined;
  }
  if (elicitation === undefined) return { name: "elicitation", required: { elicitation: {} } };
  const formOnly = Object.keys(elicitation).length === 0;
  return formOnly || elicitation.form !== undefined
    ? undefined
    : { name: need, required: { elicitation: { form: {} } } };
}
