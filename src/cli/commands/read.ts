import type { ReadResourceResult } from "../../index.js";
import { staticResourceUriOf } from "../../loader/resource-naming.js";
import type { Command } from "../command.js";
import { requestInProcess } from "../in-process-request.js";
import { loadQuietly, reportLoad } from "../load-report.js";
import { parseCommandArgs, UsageError } from "../parse-args.js";
import { renderResourceResult } from "../render-result.js";
import { printError, printOut } from "../stdout.js";

export const read: Command = {
  name: "read",
  summary: "Read one resource in-process and print its contents",
  help: `Usage: mcp-dir read <uri> [--dir dir] [--json]

Loads the server directory, reads the resource at <uri> (a resource's URI,
or one a resource template matches; a file's URI may be typed unencoded, as
"file:///docs/Getting started.md") and prints its contents: text as is,
binary as a summary (mime type and size). Log messages go to stderr. Exits 1
when the server answers with an error (a template's read that finds nothing,
say).

Options:
  --dir <dir>   The server directory (default: the current directory)
  --json        Print the whole ReadResourceResult as JSON (binary as base64)
  -h, --help    Show this help

Example:
  mcp-dir read users://susan --dir example-server`,

  async run(argv) {
    const { positionals, values, help } = parseCommandArgs(
      "read",
      argv,
      { dir: { type: "string" }, json: { type: "boolean" } },
      1,
    );
    if (help) {
      await printOut(read.help);
      return 0;
    }
    const [typed] = positionals;
    if (typed === undefined) throw new UsageError("Missing the URI of the resource", "read");
    const dir = typeof values.dir === "string" ? values.dir : ".";

    const loaded = await loadQuietly(dir);
    if (!(await reportLoad(loaded, dir, printError))) return 1;
    const { server } = loaded;
    const { registry } = server;
    // A file's URI as typed at a terminal may hold what its listed URI percent-encodes.
    const uri = [typed, staticResourceUriOf(typed)].find(
      (candidate) => candidate !== undefined && registry.resource(candidate) !== undefined,
    );
    if (uri === undefined) {
      const listed = [
        ...(registry.resources.length > 0
          ? [`the resources are ${registry.resources.map((r) => r.uri).join(", ")}`]
          : []),
        ...(registry.templates.length > 0
          ? [`the templates are ${registry.templates.map((r) => r.template?.template).join(", ")}`]
          : []),
      ];
      await printError(
        `mcp-dir read: no resource or template in ${dir} matches "${typed}"; ${listed.length > 0 ? listed.join("; ") : "it has no resources"}`,
      );
      return 1;
    }
    let result: ReadResourceResult;
    try {
      result = await requestInProcess(server, (client) => client.readResource({ uri }));
    } catch (error) {
      await printError(`mcp-dir read: ${(error as Error).message}`);
      return 1;
    }
    await printOut(
      values.json === true ? JSON.stringify(result, null, 2) : renderResourceResult(result),
    );
    return 0;
  },
};
