import { errorResult } from "../../define/tool-result.js";
import { callToolResultForVersion } from "../../protocol/downgrade.js";
import { invalidParams, optionalObject, requireString } from "../params.js";
import { withinTimeLimit } from "../time-limit.js";
import { listMethod } from "./list.js";
import { BOTH_ERAS, type MethodTable } from "./method.js";

export const toolMethods: MethodTable = {
  "tools/list": {
    eras: BOTH_ERAS,
    capability: "tools",
    handler: listMethod("tools/list", "tools"),
  },

  "tools/call": {
    eras: BOTH_ERAS,
    capability: "tools",
    asksInput: true,
    names: "name",
    async handler(params, rc) {
      const name = requireString(params, "name", "tools/call");
      const tool = rc.engine.registry.tool(name);
      if (!tool) throw invalidParams(`Unknown tool: "${name}"`);
      const args = optionalObject(params, "arguments", "tools/call");
      const timed = {
        label: `Tool "${name}"`,
        definer: "defineTool",
        timeoutMs: tool.definition.timeoutMs,
      };
      const result = await withinTimeLimit(rc, timed, () => tool.call(args, rc), errorResult);
      return callToolResultForVersion(result, rc.protocolVersion);
    },
  },
};
