import { access, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Command } from "../command.js";
import { mcpDirDependency } from "../mcp-dir-dependency.js";
import { OWN_ROOT } from "../package-info.js";
import { describeSections, mergePackageJson, type PackageMerge } from "../package-json-merge.js";
import { parseCommandArgs } from "../parse-args.js";
import {
  EXAMPLE_TESTS,
  exampleTestRunner,
  FOLDER_EXAMPLES,
  NEW_PROJECT_ONLY,
  packageNameFor,
  packageNeeds,
  scaffoldFiles,
} from "../scaffold.js";
import { printError, printOut } from "../stdout.js";

export const init: Command = {
  name: "init",
  summary: "Create a server directory with a tool, a prompt and a resource",
  help: `Usage: mcp-dir init [dir] [--view]

Makes [dir] (default: the current directory) a working server directory.

In a new or empty directory it creates package.json (mcp-dir and zod; typescript
and @types/node for the typecheck script, tsx for the test script; start, dev,
list, check, typecheck and test scripts), tsconfig.json, .gitignore, README.md,
an optional mcp-dir.config.ts, an example in each folder (tools/greet.ts,
prompts/summarize.md and resources/about.md) and a test of the tool,
test/greet.test.ts (node:test with mcp-dir/testing). With --view, also
views/greet.html: the tool's interactive view (MCP Apps), plain HTML.

In an existing npm project (a directory with a package.json) it adds the
folders (each with its example) that do not exist yet, mcp-dir.config.ts and
tsconfig.json if missing, and the dependencies and scripts package.json lacks.
The tool's test is written for vitest when the project's own test script runs
vitest, and not at all when it runs another runner.

It never overwrites a file or changes what package.json already has, and says
what it added and what it left alone.

An mcp-dir that is not an installed package (a clone of its repository) is
added as a path to its folder ("file:../mcp-dir"), which npm install links;
an installed one as its version's range.

Options:
  --view       Also scaffold views/greet.html, the view of the tool greet
  -h, --help   Show this help

Then:
  cd <dir> && npm install && npx mcp-dir serve .`,

  async run(argv) {
    const { positionals, values, help } = parseCommandArgs(
      "init",
      argv,
      { view: { type: "boolean" } },
      1,
    );
    if (help) {
      await printOut(init.help);
      return 0;
    }
    const dir = positionals[0] ?? ".";
    const root = resolve(dir);
    const file = await fileInTheWay(root);
    if (file !== undefined) {
      await printError(
        `mcp-dir init: ${file} is a file, not a folder; give init a folder to create or to add a server to (mcp-dir init my-server)`,
      );
      return 1;
    }
    const packageText = await readFile(join(root, "package.json"), "utf8").catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
        throw error;
      },
    );
    let merge: PackageMerge | undefined;
    if (packageText !== undefined) {
      try {
        merge = mergePackageJson(packageText, packageNeeds(root));
      } catch (error) {
        await printError(
          `mcp-dir init: ${join(dir, "package.json")} ${(error as Error).message}; fix it and run init again`,
        );
        return 1;
      }
    }

    const name = nameIn(packageText) ?? packageNameFor(basename(root));
    const added: string[] = [];
    const kept: string[] = [];
    const view = values.view === true;
    const ownTest = testScriptIn(packageText);
    const testRunner = exampleTestRunner(ownTest);
    const files = scaffoldFiles(name, root, { view, testRunner });
    for (const [path, content] of Object.entries(files)) {
      if (merge && NEW_PROJECT_ONLY.includes(path)) continue;
      const subject = EXAMPLE_TESTS[path];
      // An example's test comes with it, and never in place of a file of the same name.
      if (subject !== undefined && !added.includes(subject)) continue;
      const folder = FOLDER_EXAMPLES.includes(path) ? path.split("/")[0] : undefined;
      const owner = folder === undefined ? path : `${folder}/`;
      if (await exists(join(root, owner))) {
        kept.push(owner);
        continue;
      }
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content, { flag: "wx" });
      added.push(path);
    }
    if (merge && merge.added.length > 0) await writeFile(join(root, "package.json"), merge.text);
    const wroteMcpDir = merge
      ? merge.added.some(
          ([section, names]) => section === "dependencies" && names.includes("mcp-dir"),
        )
      : added.includes("package.json");
    const dependency = mcpDirDependency(root);
    if (wroteMcpDir && dependency.linked) {
      await printError(
        `mcp-dir init: this mcp-dir runs from ${OWN_ROOT}, not from an installed package, so package.json depends on that folder ("mcp-dir": "${dependency.spec}"); npm install links it`,
      );
    }

    // The example's test, not written: the project's own runner would fail on it.
    const untested =
      testRunner === "none" && added.includes("tools/greet.ts") ? ownTest : undefined;
    await printOut(report(dir, added, kept, merge, view, untested));
    return 0;
  },
};

/** The nearest of `path` and the folders above it that exists, when it is not a folder. */
async function fileInTheWay(path: string): Promise<string | undefined> {
  for (let at = path; ; at = dirname(at)) {
    const stats = await stat(at).catch(() => undefined);
    if (stats !== undefined) return stats.isDirectory() ? undefined : at;
    if (dirname(at) === at) return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function nameIn(packageText: string | undefined): string | undefined {
  if (packageText === undefined) return undefined;
  const { name } = JSON.parse(packageText) as { name?: unknown };
  return typeof name === "string" && name !== "" ? name : undefined;
}

/** The project's own test script, when it has one. */
function testScriptIn(packageText: string | undefined): string | undefined {
  if (packageText === undefined) return undefined;
  const { scripts } = JSON.parse(packageText) as { scripts?: Record<string, unknown> };
  const test = scripts?.test;
  return typeof test === "string" ? test : undefined;
}

function report(
  dir: string,
  added: string[],
  kept: string[],
  merge: PackageMerge | undefined,
  view: boolean,
  untestedBy: string | undefined,
): string {
  const shown = /^[\w./:@-]+$/.test(dir) ? dir : JSON.stringify(dir);
  const next = [
    "Next:",
    `  ${dir === "." ? "" : `cd ${shown} && `}npm install && npx mcp-dir serve .`,
  ];
  if (merge === undefined && kept.length === 0) {
    return [
      `Created ${dir === "." ? "a server" : dir} with a tool (tools/greet.ts)${view ? ", its view (views/greet.html)" : ""} and its test (test/greet.test.ts), a prompt (prompts/summarize.md) and a resource (resources/about.md).`,
      ...next,
    ].join("\n");
  }
  const lines: string[] = [];
  if (added.length > 0) lines.push(`Added${dir === "." ? "" : ` to ${dir}`}: ${added.join(", ")}`);
  if (merge && merge.added.length > 0)
    lines.push(`Added to package.json: ${describeSections(merge.added)}`);
  if (lines.length === 0) lines.push(`Nothing to add: ${dir} has everything init makes.`);
  if (kept.length > 0) lines.push(`Left alone (already there): ${kept.join(", ")}`);
  if (merge && merge.kept.length > 0)
    lines.push(`Left alone in package.json: ${describeSections(merge.kept)}`);
  if (untestedBy !== undefined) {
    lines.push(
      `Not added: test/greet.test.ts, a test of tools/greet.ts for node:test or vitest, which package.json's test script (${JSON.stringify(untestedBy)}) does not run; see "Testing your server" in mcp-dir's README to write one for your runner`,
    );
  }
  return [...lines, ...next].join("\n");
}
