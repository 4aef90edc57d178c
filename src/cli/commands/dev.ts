import type { Command } from "../command.js";
import { HTTP_HINTS, refuseWordAfterHttp } from "../http-flag-word.js";
import { LOAD_TIMEOUT_HELP, LOAD_TIMEOUT_OPTION, loadTimeoutFlag } from "../load-timeout-option.js";
import { parseCommandArgs, UsageError } from "../parse-args.js";
import { httpFlags, portNumber, TRANSPORT_HELP, TRANSPORT_OPTIONS } from "../serve-options.js";
import { printOut } from "../stdout.js";

export const dev: Command = {
  name: "dev",
  summary: "Serve a server directory and reload every saved file in place",
  help: `Usage: mcp-dir dev [dir] [options]

Serves [dir] (default: the current directory) like 'serve', and watches it:
a saved, added, renamed or deleted file is applied in place, with no restart
and no dropped connection. Clients get notifications/tools/list_changed (and
prompts, resources) and resources/updated for subscribed resources. A file that
fails to load keeps its last good version in service; the error is printed
here and sent to clients as a log message.

Options:
${TRANSPORT_HELP}
${LOAD_TIMEOUT_HELP}
  --ui                 Also serve a page on 127.0.0.1 that shows the server live
                       and calls it (its address, with a secret, is printed)
  --ui-port <n>        The page's port (default 0: a free one)
  --verbose            Say what changed and what clients were told
  -h, --help           Show this help

Examples:
  npx mcp-dir dev my-server
  npx mcp-dir dev my-server --http --port 3000
  npx mcp-dir dev my-server --ui`,

  async run(argv) {
    const parsed = parseCommandArgs(
      "dev",
      argv,
      {
        ...TRANSPORT_OPTIONS,
        ...LOAD_TIMEOUT_OPTION,
        verbose: { type: "boolean" },
        ui: { type: "boolean" },
        "ui-port": { type: "string" },
      },
      1,
      { hints: HTTP_HINTS },
    );
    const { values, positionals, help } = parsed;
    if (help) {
      await printOut(dev.help);
      return 0;
    }
    refuseWordAfterHttp(parsed, "dev");
    const http = httpFlags(values, "dev");
    // The server and the loader load when it starts, not for --help.
    const { startServer } = await import("../start-server.js");
    return startServer(positionals[0] ?? ".", {
      ...(http && { http }),
      ...loadTimeoutFlag(values, "dev"),
      dev: { verbose: values.verbose === true, ...uiFlags(values.ui, values["ui-port"]) },
    });
  },
};

/** `--ui` and `--ui-port`: undefined without --ui. */
function uiFlags(ui: unknown, uiPort: unknown): { ui?: { port: number } } {
  if (ui !== true) {
    if (uiPort !== undefined) throw new UsageError("--ui-port needs --ui", "dev");
    return {};
  }
  if (typeof uiPort !== "string") return { ui: { port: 0 } };
  const port = portNumber(uiPort);
  if (port === undefined) {
    throw new UsageError(`--ui-port must be a number from 0 to 65535, got '${uiPort}'`, "dev");
  }
  return { ui: { port } };
}
