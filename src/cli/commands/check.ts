import type { Command } from "../command.js";
import { countSummary, loadQuietly, reportLoad } from "../load-report.js";
import { LOAD_TIMEOUT_HELP, LOAD_TIMEOUT_OPTION, loadTimeoutFlag } from "../load-timeout-option.js";
import { parseCommandArgs } from "../parse-args.js";
import { printOut } from "../stdout.js";

export const check: Command = {
  name: "check",
  summary: "Validate a server directory (for CI): every problem, exit 0 or 1",
  help: `Usage: mcp-dir check [dir]

Loads and validates every file of [dir] (default: the current directory) as
serve would, and prints every problem (file, export, what to do) and warning.
Exits 0 when there is no problem, 1 otherwise: use it in CI.

Options:
${LOAD_TIMEOUT_HELP}
  -h, --help           Show this help`,

  async run(argv) {
    const { values, positionals, help } = parseCommandArgs("check", argv, LOAD_TIMEOUT_OPTION, 1);
    if (help) {
      await printOut(check.help);
      return 0;
    }
    const dir = positionals[0] ?? ".";
    const loaded = await loadQuietly(dir, {}, loadTimeoutFlag(values, "check"));
    if (!(await reportLoad(loaded, dir, printOut, "mcp-dir check"))) return 1;
    await printOut(`mcp-dir check: ${dir} is fine: ${countSummary(loaded.server)}`);
    return 0;
  },
};
