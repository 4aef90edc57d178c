import { promptResultForVersion } from "../../protocol/downgrade.js";
import { invalidParams, optionalObject, requireString } from "../params.js";
import { withinTimeLimit } from "../time-limit.js";
import { listMethod } from "./list.js";
import { BOTH_ERAS, type MethodTable } from "./method.js";

export const promptMethods: MethodTable = {
  "prompts/list": {
    eras: BOTH_ERAS,
    capability: "prompts",
    handler: listMethod("prompts/list", "prompts"),
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
      const args = optionalObject(params, "arguments", "prompts/get");
      for (const [key, value] of Object.entries(args ?? {})) {
        if (typeof value !== "string") {
          throw invalidParams(`prompts/get: argument "${key}" must be a string`);
        }
      }
      const timed = {
        label: `Prompt "${name}"`,
        definer: "definePrompt",
        timeoutMs: prompt.definition.timeoutMs,
      };
      const result = await withinTimeLimit(rc, timed, () =>
        prompt.get(args as Record<string, string> | undefined, rc),
      );
      return promptResultForVersion(result, rc.protocolVersion);
    },
  },
};
