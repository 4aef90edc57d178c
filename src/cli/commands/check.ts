import type { Command } from "../command.js";
import { countSummary, loadQuietly, reportLoad } from "../load-report.js";
import { LOAD_TIMEOUT_HELP, LOAD_TIMEOUT_OPTION, loadTimeoutFlag } from "../load-timeout-option.js";
import { middlewareLines } from "../middleware-report.js";
import { parseCommandArgs } from "../parse-args.js";
import { printOut } from "../stdout.js";
import { type TypeCheck, TypeCheckUnavailable, typecheckDirectory } from "../typecheck.js";
import { viewLines } from "../view-report.js";

export const check: Command = {
  name: "check",
  summary: "Validate a server directory (for CI): every problem, exit 0 or 1",
  help: `Usage: mcp-dir check [dir] [--typecheck]

Loads and validates every file of [dir] (default: the current directory) as
serve would, and prints every problem (file, export, what to do) and warning,
then what each middleware wraps and which tools each view shows. Exits 0
when there is no problem, 1 otherwise: use it in CI.

With --typecheck it also type-checks the directory's code (every file serve
loads, the config file, and what they import) with the project's own
TypeScript, and prints each type error as file:line:col: TS code: message.
Compiler options come from [dir]/tsconfig.json; without one: strict, ES
modules, imports resolved as serve resolves them (bundler style).

Options:
  --typecheck          Also type-check with the project's TypeScript
${LOAD_TIMEOUT_HELP}
  -h, --help           Show this help`,

  async run(argv) {
    const { values, positionals, help } = parseCommandArgs(
      "check",
      argv,
      { ...LOAD_TIMEOUT_OPTION, typecheck: { type: "boolean" } },
      1,
    );
    if (help) {
      await printOut(check.help);
      return 0;
    }
    const dir = positionals[0] ?? ".";
    const loaded = await loadQuietly(dir, {}, loadTimeoutFlag(values, "check"));
    const loads = await reportLoad(loaded, dir, printOut, "mcp-dir check");
    if (values.typecheck !== true) {
      if (!loads) return 1;
      for (const line of middlewareLines(loaded.server)) await printOut(line);
      for (const line of viewLines(loaded.server)) await printOut(line);
      await printOut(`mcp-dir check: ${dir} is fine: ${countSummary(loaded.server)}`);
      return 0;
    }

    let types: TypeCheck;
    try {
      types = await typecheckDirectory(loaded.load.dir, dir, loaded.load.config);
    } catch (error) {
      if (!(error instanceof TypeCheckUnavailable)) throw error;
      await printOut(`error: ${error.message}`);
      return 1;
    }
    for (const warning of types.warnings) await printOut(`warning: ${warning}`);
    for (const error of types.errors) await printOut(`error: ${error}`);
    const count = types.errors.length;
    if (count > 0) {
      await printOut(
        `mcp-dir check: ${count} type error${count === 1 ? "" : "s"} in ${dir} (${types.using}); fix ${count === 1 ? "it" : "them"} and run again`,
      );
      return 1;
    }
    if (!loads) {
      await printOut(`mcp-dir check: no type errors in ${dir} (${types.using})`);
      return 1;
    }
    for (const line of middlewareLines(loaded.server)) await printOut(line);
    for (const line of viewLines(loaded.server)) await printOut(line);
    await printOut(
      `mcp-dir check: ${dir} is fine: ${countSummary(loaded.server)}; no type errors (${types.using})`,
    );
    return 0;
  },
};
