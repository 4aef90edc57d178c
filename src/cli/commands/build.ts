import { resolve } from "node:path";
import type { BuildTarget } from "../../build/entry-source.js";
import { outFolderProblem } from "../../build/out-folder.js";
import type { Command } from "../command.js";
import { countSummary, loadQuietly, reportLoad, reportProblems } from "../load-report.js";
import { LOAD_TIMEOUT_HELP, LOAD_TIMEOUT_OPTION, loadTimeoutFlag } from "../load-timeout-option.js";
import { parseCommandArgs, UsageError } from "../parse-args.js";
import { printError, printOut } from "../stdout.js";

const TARGETS: readonly BuildTarget[] = ["node", "bun", "deno", "cloudflare"];

export const buildCommand: Command = {
  name: "build",
  summary: "Bundle a server directory into one deployable module",
  help: `Usage: mcp-dir build [dir] [--out dist-mcp] [--target node|bun|deno|cloudflare]

Checks [dir] (default: the current directory) as check does, then writes one
self-contained ES module, <out>/server.mjs, in which every definition file is
imported statically and every Markdown prompt and static resource is
embedded: nothing scans, transforms or watches at run time. Also writes
<out>/manifest.json (names and files), and for cloudflare a wrangler.toml.
Warns on stderr (file:line:column) where a file of the server uses what
serve gives it but the bundle, an ES module, lacks: __dirname, __filename,
for cloudflare require(), and an import() of a path computed at run time;
and where it uses its own place, import.meta.url, .dirname or .filename,
which in the bundle are server.mjs's (a file read from beside it is not
there: import it instead, as a .json file).

It never destroys what it did not write: <out> must be a new folder, an
empty one, or an earlier build's output and nothing else (server.mjs,
manifest.json, wrangler.toml: replaced). Anything else (a folder holding
other files, the server directory or one holding it, a folder the server
loads definitions from such as tools/, a file, a link to nothing) is
refused, saying what to do.

Run it: node|bun <out>/server.mjs [--http [--port n] [--host h]],
deno run -A <out>/server.mjs [--http ...]: over HTTP it keeps 2025 sessions,
as serve does. It also exports a web-standard handler, { fetch }, served by
Workers (cloudflare) and deno serve as is: there the server is stateless,
2026-07-28 clients and 2025 clients without sessions (no server push; GET is
405).

Options:
  --out <dir>          Where to write (default dist-mcp, in the current directory)
  --target <t>         node (default), bun, deno or cloudflare
${LOAD_TIMEOUT_HELP}
  -h, --help           Show this help`,

  async run(argv) {
    const { values, positionals, help } = parseCommandArgs(
      "build",
      argv,
      { out: { type: "string" }, target: { type: "string" }, ...LOAD_TIMEOUT_OPTION },
      1,
    );
    if (help) {
      await printOut(buildCommand.help);
      return 0;
    }
    const target = (values.target ?? "node") as BuildTarget;
    if (!TARGETS.includes(target)) {
      throw new UsageError(
        `--target must be one of ${TARGETS.join(", ")}, got '${values.target}'`,
        "build",
      );
    }
    const dir = positionals[0] ?? ".";
    const out = resolve(typeof values.out === "string" ? values.out : "dist-mcp");
    const refused = await outFolderProblem(out, dir);
    if (refused !== undefined) {
      await printError(`mcp-dir build: ${refused}`);
      return 1;
    }
    const loaded = await loadQuietly(dir, {}, loadTimeoutFlag(values, "build"));
    if (!(await reportLoad(loaded, dir, printError, "mcp-dir build"))) return 1;
    // esbuild loads only for a build, not at every command's start.
    const { writeBundle } = await import("../../build/write-bundle.js");
    const built = await writeBundle(loaded, out, target);
    if ("problems" in built) {
      await reportProblems(built.problems, dir, printError, "mcp-dir build");
      return 1;
    }
    for (const warning of built.warnings) await printError(`warning: ${warning}`);
    await printOut(
      `mcp-dir build: ${dir} (${countSummary(loaded.server)}) for ${target}: ${built.files.join(", ")}`,
    );
    return 0;
  },
};
