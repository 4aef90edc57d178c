import type { GetPromptResult } from "../../index.js";
import type { Command } from "../command.js";
import { noSuch, requestInProcess } from "../in-process-request.js";
import { parseJsonObject } from "../json-arguments.js";
import { loadQuietly, reportLoad } from "../load-report.js";
import { parseCommandArgs, UsageError } from "../parse-args.js";
import { renderPromptResult } from "../render-result.js";
import { printError, printOut } from "../stdout.js";

export const get: Command = {
  name: "get",
  summary: "Get one prompt in-process and print its messages",
  help: `Usage: mcp-dir get <prompt> [json-arguments] [--dir dir] [--json]

Loads the server directory, gets <prompt> with [json-arguments] (a JSON
object, default {}) and prints its messages, each under its role ([user],
[assistant]): text as is, images and audio as a summary. Prompt arguments are
strings in MCP: numbers and booleans are sent as text. Log messages go to
stderr. Exits 1 when the server answers with an error (a required argument
left out, say).

Options:
  --dir <dir>   The server directory (default: the current directory)
  --json        Print the whole GetPromptResult as JSON
  -h, --help    Show this help

Example:
  mcp-dir get code_review '{"code": "x = 1", "language": "python"}' --dir example-server`,

  async run(argv) {
    const { positionals, values, help } = parseCommandArgs(
      "get",
      argv,
      { dir: { type: "string" }, json: { type: "boolean" } },
      2,
    );
    if (help) {
      await printOut(get.help);
      return 0;
    }
    const [promptName, rawArguments = "{}"] = positionals;
    if (promptName === undefined) throw new UsageError("Missing the name of the prompt", "get");
    const args = promptArguments(parseJsonObject(rawArguments, "get"));
    const dir = typeof values.dir === "string" ? values.dir : ".";

    const loaded = await loadQuietly(dir);
    if (!(await reportLoad(loaded, dir, printError))) return 1;
    const { server } = loaded;
    if (server.registry.prompt(promptName) === undefined) {
      const names = server.registry.prompts.map((prompt) => prompt.name);
      await printError(`mcp-dir get: ${noSuch("prompt", promptName, dir, names)}`);
      return 1;
    }
    let result: GetPromptResult;
    try {
      result = await requestInProcess(server, (client) =>
        client.getPrompt({ name: promptName, arguments: args }),
      );
    } catch (error) {
      await printError(`mcp-dir get: ${(error as Error).message}`);
      return 1;
    }
    await printOut(
      values.json === true ? JSON.stringify(result, null, 2) : renderPromptResult(result),
    );
    return 0;
  },
};

/** Prompt arguments are strings on the wire: numbers and booleans become their text. */
function promptArguments(args: Record<string, unknown>): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (typeof value === "string") strings[name] = value;
    else if (typeof value === "number" || typeof value === "boolean") strings[name] = String(value);
    else {
      throw new UsageError(
        `The prompt argument "${name}" must be text (prompt arguments are strings), such as '{"${name}": "..."}'`,
        "get",
      );
    }
  }
  return strings;
}
