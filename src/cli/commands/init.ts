import { access, mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Command } from "../command.js";
import { parseCommandArgs } from "../parse-args.js";
import { scaffoldFiles } from "../scaffold.js";
import { printError, printOut } from "../stdout.js";

export const init: Command = {
  name: "init",
  summary: "Create a server directory with a tool, a prompt and a resource",
  help: `Usage: mcp-dir init [dir]

Creates a working server directory in [dir] (default: the current directory):
package.json (depending on mcp-dir and zod), tsconfig.json, an optional
mcp-dir.config.ts, tools/greet.ts, prompts/summarize.md and resources/about.md.
Never overwrites a file: exits 1 if one of them exists.

Options:
  -h, --help   Show this help

Then:
  cd <dir> && npm install && npx mcp-dir serve .`,

  async run(argv) {
    const { positionals, help } = parseCommandArgs("init", argv, {}, 1);
    if (help) {
      await printOut(init.help);
      return 0;
    }
    const dir = positionals[0] ?? ".";
    const root = resolve(dir);
    const files = Object.entries(scaffoldFiles(basename(root)));
    const existing: string[] = [];
    for (const [path] of files) {
      if (
        await access(join(root, path)).then(
          () => true,
          () => false,
        )
      )
        existing.push(path);
    }
    if (existing.length > 0) {
      await printError(
        `mcp-dir init: ${dir} already has ${existing.join(", ")}; choose an empty or new directory`,
      );
      return 1;
    }
    for (const [path, content] of files) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content);
    }
    const shown = /^[\w./:@-]+$/.test(dir) ? dir : JSON.stringify(dir);
    const next = dir === "." ? "" : `cd ${shown} && `;
    await printOut(
      [
        `Created ${dir === "." ? "a server" : dir} with a tool (tools/greet.ts), a prompt (prompts/summarize.md) and a resource (resources/about.md).`,
        "Next:",
        `  ${next}npm install && npx mcp-dir serve .`,
      ].join("\n"),
    );
    return 0;
  },
};
