import { promptResultForVersion } from "../../protocol/downgrade.js";
import { invalidParams, optionalObject, requireString } from "../params.js";
import { requireScopes } from "../scope-check.js";
import { withinTimeLimit } from "../time-limit.js";
import { listMethod } from "./list.js";
import { BOTH_ERAS, type MethodTable, rethrow } from "./method.js";

export const promptMethods: MethodTable = {
  "prompts/list": {
    eras: BOTH_ERAS,
    capability: "prompts",
    handler: listMethod("prompts"),
  },

  "prompts/get": {
    eras: BOTH_ERAS,
    capability: "prompts",
    asksInput: true,
    names: "name",
    async handler(params, rc) {
      const name = requireString(params, "name", "prompts/get");
      const prompt = rc.engine.registry.prompt(name);
      if (!prompt) throw invalidParams(`Unknown prompt: "${name}"`);
      const { chain, timeout, scopes } = rc.engine.registry.served(prompt);
      requireScopes(rc.env, scopes, `prompt "${name}"`);
      const args = stringArguments(optionalObject(params, "arguments", "prompts/get"));
      const timed = {
        label: `Prompt "${name}"`,
        definer: "definePrompt",
        timeoutMs: prompt.definition.timeoutMs,
        folder: timeout,
      };
      const run = chain
        ? () =>
            chain(rc, args ?? {}, {
              run: (given) => prompt.get(stringArguments(given), rc),
              settle: (value) => prompt.settle(value),
              fail: rethrow,
            })
        : () => prompt.get(args, rc);
      const result = await withinTimeLimit(rc, timed, run);
      return promptResultForVersion(result, rc.protocolVersion);
    },
  },
};

/** Prompt arguments are strings on the wire, whoever set them (a client, or a middleware). */
function stringArguments(
  args: Record<string, unknown> | undefined,
): Record<string, string> | undefined {
  for (const [key, value] of Object.entries(args ?? {})) {
    if (typeof value !== "string") {
      throw invalidParams(`prompts/get: argument "${key}" must be a string`);
    }
  }
  return args as Record<string, string> | undefined;
}
