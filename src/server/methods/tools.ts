import { callToolResultForVersion } from "../../protocol/downgrade.js";
import { invalidParams, optionalObject, optionalString, requireString } from "../params.js";
import type { MethodTable } from "./method.js";

export const toolMethods: MethodTable = {
  "tools/list"(params, rc) {
    const cursor = optionalString(params, "cursor", "tools/list");
    return rc.engine.lists.page("tools", rc.protocolVersion, cursor, rc.engine.pageSize);
  },

  async "tools/call"(params, rc) {
    const name = requireString(params, "name", "tools/call");
    const tool = rc.engine.registry.tool(name);
    if (!tool) throw invalidParams(`Unknown tool: "${name}"`);
    const args = optionalObject(params, "arguments", "tools/call");
    const result = await tool.call(args, rc);
    return callToolResultForVersion(result, rc.protocolVersion);
  },
};
