import { InputRequiredError, type TaskState } from "../../client/index.js";
import type { CallToolResult, McpServer } from "../../index.js";
import {
  describeInputRequests,
  TERMINAL_CAPABILITIES,
  TerminalAnswers,
} from "../answer-on-terminal.js";
import type { Command } from "../command.js";
import { noSuch, requestInProcess, SHOW_PROGRESS } from "../in-process-request.js";
import { parseJsonObject } from "../json-arguments.js";
import { loadQuietly, reportLoad } from "../load-report.js";
import { parseCommandArgs, UsageError } from "../parse-args.js";
import { renderToolResult } from "../render-result.js";
import { printError, printOut } from "../stdout.js";

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
ctx.roots() gets the working directory. A tool that runs as a task (task:
"optional" or "required") runs as one, to its end: its status goes to stderr
as it changes.

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
    const args = parseJsonObject(rawArguments, "call");
    const dir = typeof values.dir === "string" ? values.dir : ".";

    const loaded = await loadQuietly(dir);
    if (!(await reportLoad(loaded, dir, printError))) return 1;
    const { server } = loaded;
    if (server.registry.tool(toolName) === undefined) {
      const names = server.registry.tools.map((tool) => tool.name);
      await printError(`mcp-dir call: ${noSuch("tool", toolName, dir, names)}`);
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

async function callTool(
  server: McpServer,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const terminal = new TerminalAnswers();
  let told = "";
  const showTask = ({ taskId, status, statusMessage }: TaskState) => {
    const line = `task ${taskId}: ${status}${statusMessage === undefined ? "" : `: ${statusMessage}`}`;
    if (line !== told) void printError(line);
    told = line;
  };
  try {
    return await requestInProcess(
      server,
      (client) =>
        client.callTool({ name, arguments: args }, { ...SHOW_PROGRESS, ontask: showTask }),
      { capabilities: TERMINAL_CAPABILITIES, tasks: true, ...terminal.responders() },
    );
  } finally {
    terminal.close();
  }
}
