import type { Command } from "../command.js";
import { LOAD_TIMEOUT_HELP, LOAD_TIMEOUT_OPTION, loadTimeoutFlag } from "../load-timeout-option.js";
import { parseCommandArgs } from "../parse-args.js";
import { httpFlags, TRANSPORT_HELP, TRANSPORT_OPTIONS } from "../serve-options.js";
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
  --verbose            Say what changed and what clients were told
  -h, --help           Show this help

Examples:
  npx mcp-dir dev my-server
  npx mcp-dir dev my-server --http --port 3000`,

  async run(argv) {
    const { values, positionals, help } = parseCommandArgs(
      "dev",
      argv,
      { ...TRANSPORT_OPTIONS, ...LOAD_TIMEOUT_OPTION, verbose: { type: "boolean" } },
      1,
    );
    if (help) {
      await printOut(dev.help);
      return 0;
    }
    const http = httpFlags(values, "dev");
    // The server and the loader load when it starts, not for --help.
    const { startServer } = await import("../start-server.js");
    return startServer(positionals[0] ?? ".", {
      ...(http && { http }),
      ...loadTimeoutFlag(values, "dev"),
      dev: { verbose: values.verbose === true },
    });
  },
};
