import { errorResult } from "../../define/tool-result.js";
import { visibleToModel } from "../../define/tool-ui.js";
import { callToolResultForVersion } from "../../protocol/downgrade.js";
import { clientShowsViews } from "../../protocol/ui.js";
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
      // A tool only a view may call exists only for a client that shows views.
      const hidden =
        tool !== undefined &&
        !visibleToModel(tool.descriptor._meta) &&
        !clientShowsViews(rc.env.clientCapabilities);
      if (!tool || hidden) throw invalidParams(`Unknown tool: "${name}"`);
      const args = optionalObject(params, "arguments", "tools/call");
      const { chain, timeout } = rc.engine.registry.served(tool);
      const timed = {
        label: `Tool "${name}"`,
        definer: "defineTool",
        timeoutMs: tool.definition.timeoutMs,
        folder: timeout,
      };
      const run = chain
        ? () =>
            chain(rc, args ?? {}, {
              run: (given) => tool.call(given, rc),
              settle: (value) => tool.settle(value),
              fail: (error) => tool.fail(error),
            })
        : () => tool.call(args, rc);
      const result = await withinTimeLimit(rc, timed, run, errorResult);
      return callToolResultForVersion(result, rc.protocolVersion);
    },
  },
};
