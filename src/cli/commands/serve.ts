import type { Command } from "../command.js";
import { parseCommandArgs } from "../parse-args.js";
import { startServer } from "../start-server.js";
import { printOut } from "../stdout.js";

export const serve: Command = {
  name: "serve",
  summary: "Serve a server directory over stdio",
  help: `Usage: mcp-dir serve [dir]

Serves the tools, prompts and resources of [dir] (default: the current
directory) over stdio: the client writes requests to stdin and reads stdout.
Logs go to stderr. Exits when stdin closes; exits 1 if a file has a problem.

Options:
  -h, --help   Show this help

Example (the command an MCP client runs):
  npx mcp-dir serve /path/to/my-server`,

  async run(argv) {
    const { positionals, help } = parseCommandArgs("serve", argv, {}, 1);
    if (help) {
      await printOut(serve.help);
      return 0;
    }
    return startServer(positionals[0] ?? ".");
  },
};
