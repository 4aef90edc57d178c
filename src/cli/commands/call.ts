import type { CallToolResult, McpServer } from "../../index.js";
import { META } from "../../protocol/meta.js";
import {
  answerOnTerminal,
  describeInputRequests,
  TERMINAL_CAPABILITIES,
} from "../answer-on-terminal.js";
import type { Command } from "../command.js";
import { connectInProcess, InputRequiredError } from "../in-process-client.js";
import { loadQuietly, reportLoad } from "../load-report.js";
import { parseCommandArgs, UsageError } from "../parse-args.js";
import { renderToolResult } from "../render-result.js";
import { divertStdout, printError, printOut } from "../stdout.js";

export const call: Command = {
  name: "call",
  summary: "Run one tool in-process and print its result",
  help: `Usage: mcp-dir call <tool> [json-arguments] [--dir dir] [--json]

Loads the server directory, calls <tool> with [json-arguments] (a JSON
object, default {}) and prints the result: the structured result as JSON when
the tool has an output schema, else its content (text as is, images and
audio as a summary). Progress and log messages go to stderr. Exits 1 when
the tool returns an error.

A tool that asks the user for input (ctx.elicit) is answered at the terminal
when stdin is one; otherwise call says what the tool asked for and exits 1.
ctx.roots() gets the working directory.

Options:
  --dir <dir>   The server directory (default: the current directory)
  --json        Print the whole CallToolResult as JSON
  -h, --help    Show this help

Example:
  mcp-dir call calculator '{"operation": "add", "a": 2, "b": 3}' --dir example-server`,

  async run(argv) {
    const { positionals, values, help } = parseCommandArgs(
      "call",
      argv,
      { dir: { type: "string" }, json: { type: "boolean" } },
      2,
    );
    if (help) {
      await printOut(call.help);
      return 0;
    }
    const [toolName, rawArguments = "{}"] = positionals;
    if (toolName === undefined)
      throw new UsageError("Missing the name of the tool to call", "call");
    const args = parseArguments(rawArguments);
    const dir = typeof values.dir === "string" ? values.dir : ".";

    const loaded = await loadQuietly(dir);
    if (!(await reportLoad(loaded, dir, printError))) return 1;
    const { server } = loaded;
    if (server.registry.tool(toolName) === undefined) {
      const names = server.registry.tools.map((tool) => tool.name);
      await printError(
        `mcp-dir call: there is no tool "${toolName}" in ${dir}; ${names.length > 0 ? `the tools are ${names.join(", ")}` : "it has no tools"}`,
      );
      return 1;
    }
    let result: CallToolResult;
    try {
      result = await callTool(server, toolName, args);
    } catch (error) {
      if (!(error instanceof InputRequiredError)) throw error;
      await printError(
        `mcp-dir call: ${toolName} asked for input, and stdin is not a terminal to ask on:\n${describeInputRequests(error.requests)}\nRun the command in a terminal to answer.`,
      );
      return 1;
    }
    await printOut(
      values.json === true ? JSON.stringify(result, null, 2) : renderToolResult(result),
    );
    return result.isError === true ? 1 : 0;
  },
};

function parseArguments(raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError(
      `The arguments are not valid JSON: pass an object such as '{"a": 1}'`,
      "call",
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`The arguments must be a JSON object, such as '{"a": 1}'`, "call");
  }
  return value as Record<string, unknown>;
}

async function callTool(
  server: McpServer,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const restoreStdout = divertStdout();
  const client = connectInProcess(server, {
    onNotification: (method, params) => {
      if (method === "notifications/progress") void printError(describeProgress(params));
      if (method === "notifications/message") void printError(describeLog(params));
    },
    capabilities: TERMINAL_CAPABILITIES,
    fulfil: answerOnTerminal,
  });
  try {
    const result = await client.request("tools/call", {
      name,
      arguments: args,
      _meta: { progressToken: "mcp-dir-call" },
    });
    return asToolResult(result);
  } finally {
    await client.close();
    restoreStdout();
  }
}

/** The tool's result without what 2026-07-28 adds to every result (its type, the server's identity). */
function asToolResult({
  resultType: _type,
  _meta,
  ...rest
}: Record<string, unknown>): CallToolResult {
  const { [META.serverInfo]: _server, ...own } = (_meta ?? {}) as Record<string, unknown>;
  return (Object.keys(own).length > 0
    ? { ...rest, _meta: own }
    : rest) as unknown as CallToolResult;
}

function describeProgress(params: Record<string, unknown>): string {
  const total = params.total === undefined ? "" : `/${params.total}`;
  const message = typeof params.message === "string" ? ` ${params.message}` : "";
  return `progress ${params.progress}${total}${message}`;
}

function describeLog(params: Record<string, unknown>): string {
  const logger = typeof params.logger === "string" ? ` ${params.logger}` : "";
  const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
  return `log ${params.level}${logger}: ${data}`;
}
