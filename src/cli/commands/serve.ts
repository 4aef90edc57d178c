import type { Command } from "../command.js";
import { HTTP_HINTS, refuseWordAfterHttp } from "../http-flag-word.js";
import { LOAD_TIMEOUT_HELP, LOAD_TIMEOUT_OPTION, loadTimeoutFlag } from "../load-timeout-option.js";
import { parseCommandArgs } from "../parse-args.js";
import { httpFlags, TRANSPORT_HELP, TRANSPORT_OPTIONS } from "../serve-options.js";
import { printOut } from "../stdout.js";

export const serve: Command = {
  name: "serve",
  summary: "Serve a server directory over stdio or Streamable HTTP",
  help: `Usage: mcp-dir serve [dir] [options]

Serves the tools, prompts and resources of [dir] (default: the current
directory). Over stdio by default: the client writes requests to stdin and
reads stdout; logs go to stderr; exits when stdin closes. With --http, serves
Streamable HTTP (127.0.0.1:3000/mcp by default) until SIGINT/SIGTERM.
Exits 1 if a file has a problem.

Options:
${TRANSPORT_HELP}
${LOAD_TIMEOUT_HELP}
  -h, --help           Show this help

Examples (the command an MCP client runs):
  npx mcp-dir serve /path/to/my-server
  npx mcp-dir serve /path/to/my-server --http --port 3000`,

  async run(argv) {
    const parsed = parseCommandArgs(
      "serve",
      argv,
      { ...TRANSPORT_OPTIONS, ...LOAD_TIMEOUT_OPTION },
      1,
      { hints: HTTP_HINTS },
    );
    const { values, positionals, help } = parsed;
    if (help) {
      await printOut(serve.help);
      return 0;
    }
    refuseWordAfterHttp(parsed, "serve");
    const http = httpFlags(values, "serve");
    // The server and the loader load when it starts, not for --help.
    const { startServer } = await import("../start-server.js");
    return startServer(positionals[0] ?? ".", {
      ...(http && { http }),
      ...loadTimeoutFlag(values, "serve"),
    });
  },
};
