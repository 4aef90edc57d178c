import type { CompiledTool } from "../../define/tool.js";
import { errorResult } from "../../define/tool-result.js";
import { visibleToModel } from "../../define/tool-ui.js";
import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import { callToolResultForVersion } from "../../protocol/downgrade.js";
import type { CallToolResult } from "../../protocol/types.js";
import { clientShowsViews } from "../../protocol/ui.js";
import { supports } from "../../protocol/versions.js";
import { invalidParams, optionalObject, type Params, requireString } from "../params.js";
import type { RequestContext } from "../request-context.js";
import { requireScopes } from "../scope-check.js";
import { declaresTasks, tasksExtensionRequired } from "../tasks/tasks.js";
import { withinTimeLimit } from "../time-limit.js";
import { listMethod } from "./list.js";
import { BOTH_ERAS, type MethodTable } from "./method.js";

export const toolMethods: MethodTable = {
  "tools/list": {
    eras: BOTH_ERAS,
    capability: "tools",
    handler: listMethod("tools"),
  },

  "tools/call": {
    eras: BOTH_ERAS,
    capability: "tools",
    asksInput: true,
    names: "name",
    handler(params, rc) {
      const name = requireString(params, "name", "tools/call");
      const tool = rc.engine.registry.tool(name);
      // A tool only a view may call exists only for a client that shows views.
      const hidden =
        tool !== undefined &&
        !visibleToModel(tool.descriptor._meta) &&
        !clientShowsViews(rc.env.clientCapabilities);
      if (!tool || hidden) throw invalidParams(`Unknown tool: "${name}"`);
      requireScopes(rc.env, rc.engine.registry.served(tool).scopes, `tool "${name}"`);
      const args = optionalObject(params, "arguments", "tools/call");
      const run = (runRc: RequestContext) => callTool(runRc, tool, args);
      if (tool.taskSupport === "forbidden") {
        refuseLegacyTask(params, rc, name);
        return run(rc);
      }
      if (!runsAsTask(params, rc, tool)) return run(rc);
      const requestedTtl = rc.env.era === "stateful" ? (params.task as Params).ttl : undefined;
      return rc.engine.tasks.run(rc, name, run, requestedTtl);
    },
  },
};

/** The request pipeline of a tool call: the time limit, the middleware chain, the definition. */
async function callTool(
  rc: RequestContext,
  tool: CompiledTool,
  args: Params | undefined,
): Promise<CallToolResult> {
  const { chain, timeout } = rc.engine.registry.served(tool);
  const timed = {
    label: `Tool "${tool.name}"`,
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
}

/**
 * Whether a call of a tool that supports tasks runs as one: on 2026-07-28
 * when the client declared the tasks extension (the server decides; a
 * `task` param is ignored), on 2025-11-25 when the call asked for one. A
 * tool that only runs as a task refuses a call that cannot be one.
 */
function runsAsTask(params: Params, rc: RequestContext, tool: CompiledTool): boolean {
  const { env } = rc;
  const required = tool.taskSupport === "required";
  if (env.era === "stateless") {
    if (declaresTasks(env.clientCapabilities)) return true;
    if (required) throw tasksExtensionRequired(`Tool "${tool.name}" runs only as a task`);
    return false;
  }
  const asked =
    supports(env.protocolVersion, "legacyTasks") &&
    optionalObject(params, "task", "tools/call") !== undefined;
  if (!asked && required) {
    throw new JsonRpcError(
      ErrorCode.MethodNotFound,
      supports(env.protocolVersion, "legacyTasks")
        ? `Tool "${tool.name}" runs only as a task: call it with a "task" param (tools/call params.task, e.g. {})`
        : `Tool "${tool.name}" runs only as a task, and protocol ${env.protocolVersion} has no tasks (2025-11-25 and 2026-07-28 do)`,
    );
  }
  return asked;
}

/** 2025-11-25: a tool that never runs as a task is not called as one where the server offers tasks. */
function refuseLegacyTask(params: Params, rc: RequestContext, name: string): void {
  if (params.task === undefined || rc.env.era === "stateless") return;
  if (!rc.engine.capabilities(rc.env.protocolVersion).tasks) return;
  throw new JsonRpcError(
    ErrorCode.MethodNotFound,
    `Tool "${name}" does not run as a task: call it without the "task" param`,
  );
}
