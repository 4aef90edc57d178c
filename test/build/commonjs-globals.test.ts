/**
 * `mcp-dir build` warns where a file of the server uses what `serve` gives it
 * (tsx runs it as CommonJS) but a bundle, one ES module, lacks: `__dirname`
 * and `__filename` on every target, and `require` on Workers (Node, Bun and
 * Deno bundles define it); where it finds a file from its own place
 * (`import.meta.url`, `.dirname`, `.filename`), server.mjs's in a bundle; and
 * where it imports a path computed at run time. Only the server's own files:
 * never a package's. What the warnings advise instead works through every door.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers/cli.js";
import { closeClients, connectClient } from "../eras/helpers/clients.js";
import { stopAll } from "../http-cli/helpers.js";
import { createEmptyDir, createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import {
  build as buildFor,
  DOORS,
  startDoor,
  stopWorkers,
  type Target,
  targetOf,
} from "./helpers/runtimes.js";

afterAll(async () => {
  await closeClients();
  await stopAll();
  await stopWorkers();
  await removeServerDirs();
});

/** A tool that reads both paths, among uses that are not the globals. */
const WHERE = `import located from "located";

export default {
  description: "Where it is",
  handler: () => {
    const here = __dirname;
    return [here, \`\${__filename}\`, located()].join(" ");
  },
};

// Not the globals: a comment's __dirname, a string, a property, a local, a test for them.
const names = { __dirname: "__filename" };
function own(__filename: string, require: (name: string) => string) {
  return require(__filename) + names.__dirname;
}
export const defined = typeof __dirname === "string" && typeof require === "function";
export const ownName = own;
`;

/**
 * A package that uses the globals itself: its own business, not the author's
 * (when asked: the bundle of the server that holds it starts, and serves).
 */
const LOCATED = {
  "node_modules/located/package.json": JSON.stringify({ name: "located", main: "index.js" }),
  "node_modules/located/index.js": "module.exports = () => __dirname + require('node:path').sep;\n",
};

const REQUIRES = `import { createRequire } from "node:module";

const name = "node:os";
export default {
  description: "Requires",
  handler: () => [require("./_helper.cjs"), require("node:path").sep, require(name).EOL].join(),
};
export const resolved = require.resolve;
export const made = createRequire;
`;

/** What the advice for each use of a file's place ends with: what works under serve and in every bundle. */
const IMPORT_IT =
  'import the file instead (import data from "./data.json": a .json file imports as its data, under serve and in the bundle alike; text can be a JSON string), or put a file meant for clients in resources/, which the bundle embeds';
const DIRNAME_ADVICE = `does not exist in the bundle, an ES module (using it throws a ReferenceError; Bun gives the out folder), and import.meta.dirname is the out folder there, not this file's: to read a file beside this one, ${IMPORT_IT}`;
const FILENAME_ADVICE = `does not exist in the bundle, an ES module (using it throws a ReferenceError; Bun gives server.mjs), and import.meta.filename is server.mjs there, not this file: to read a file beside this one, ${IMPORT_IT}`;
const WORKER_ADVICE = `does not exist on Workers (using it throws a ReferenceError), nor do files to read: ${IMPORT_IT}`;
const PLACE_ADVICE = `is this file's under serve but server.mjs's in the bundle, so a path from it to a file beside this one leads elsewhere where the bundle runs: ${IMPORT_IT}`;
const WORKER_PLACE_ADVICE = `is undefined on Workers, which have no files to read: ${IMPORT_IT}`;
const REQUIRE_ADVICE =
  'does not exist on Workers, and esbuild bundles only a require("./file") or require("package") it can resolve: import what it loads with a static import at the top of the file instead (import { sep } from "node:path"), which esbuild bundles (a node: module is the Worker\'s own, with nodejs_compat); not with import(name), whose computed path is not bundled either';

/** A tool that reads a file beside it, each way an ES module finds one; and what is not a use. */
const READS = `import { readFileSync } from "node:fs";
import { join } from "node:path";

export default {
  description: "Reads its data",
  handler: () => readFileSync(new URL("../data/note.txt", import.meta.url), "utf8"),
};
export const joined = () => readFileSync(join(import.meta.dirname, "../data/note.txt"), "utf8");
export const self = () => readFileSync(import.meta.filename, "utf8");

// Not uses: a comment's import.meta.url, a string, a test for one.
export const text = "import.meta.url";
export const known = typeof import.meta.dirname === "string";
`;

/** import() of every kind: only the first's path is left to the run time. */
const IMPORTS = `const label = "import(name) in a string";
export default {
  description: "Loads",
  handler: async ({ n }: { n: string }) => {
    const path = \`../lib/\${n}.js\`;
    const computed = await import(path);
    const globbed = await import(\`../lib/\${n}.js\`);
    const joined = await import("../lib/" + n + ".js");
    const literal = await import("../lib/one.js");
    const builtIn = await import("node:os");
    const either = await import(n === "z" ? "zod" : "node:path");
    return [computed, globbed, joined, literal, builtIn, either, label].length;
  },
};
`;

const COMPUTED_IMPORT_ADVICE = `of a path computed at run time is not bundled: the bundle resolves it from the out folder, which holds none of the server's files or packages (it fails there unless it names one of the runtime's own modules, node:...). Import what it may load statically, or give import() one path, or a pattern from a relative folder such as import(\`./data/\${name}.js\`), whose matching files esbuild bundles`;

async function build(dir: string, target: string) {
  const out = join(await createEmptyDir(), "out");
  return { ...(await runCli(["build", dir, "--out", out, "--target", target])), out };
}

type Built = Awaited<ReturnType<typeof build>>;

/** Builds `dir` for each target in turn, each into a folder of its own: one result a target. */
async function buildEach<const T extends readonly string[]>(
  dir: string,
  targets: T,
): Promise<{ [K in keyof T]: Built }> {
  const built: Built[] = [];
  for (const target of targets) built.push(await build(dir, target));
  return built as { [K in keyof T]: Built };
}

/** Every use above in one server, built once for each target: read by the cases below, written by none. */
let usesBuilt: ReturnType<typeof buildUses> | undefined;
async function buildUses() {
  const dir = await createServerDir({
    "tools/where.ts": WHERE,
    ...LOCATED,
    "tools/requires.ts": REQUIRES,
    "tools/_helper.cjs": "module.exports = 'helped';\n",
    "tools/reads.ts": READS,
    "data/note.txt": "a note\n",
    "tools/imports.ts": IMPORTS,
    "lib/one.js": 'export default "one";\n',
  });
  const [node, bun, deno, worker] = await buildEach(dir, ["node", "bun", "deno", "cloudflare"]);
  return { dir, node, bun, deno, worker };
}
const uses = () => {
  usesBuilt ??= buildUses();
  return usesBuilt;
};

const FILES = ["tools/where.ts", "tools/requires.ts", "tools/reads.ts", "tools/imports.ts"];

/** The lines of a build's stderr that warn of `file`, each ended by a newline. */
function warningsOf(built: Built, file: string): string {
  return built.stderr
    .split("\n")
    .filter((line) => line.startsWith(`warning: ${file}:`))
    .map((line) => `${line}\n`)
    .join("");
}

describe("mcp-dir build: what the server's files use that a bundle lacks", () => {
  it("builds for every target, warning only of the server's own files", async () => {
    const { node, bun, deno, worker } = await uses();
    for (const built of [node, bun, deno, worker]) {
      expect(built.code).toBe(0);
      const others = built.stderr
        .split("\n")
        .filter(
          (line) => line !== "" && !FILES.some((file) => line.startsWith(`warning: ${file}:`)),
        );
      expect(others).toEqual([]);
      expect(built.stderr.endsWith("\n")).toBe(true);
    }
  });

  it("warns of __dirname and __filename on every target, naming the file, line and column", async () => {
    const { node, bun, deno, worker } = await uses();
    const warned = (dirname: string, filename: string) =>
      [
        `warning: tools/where.ts:6:18: __dirname ${dirname}`,
        `warning: tools/where.ts:7:22: __filename ${filename}`,
        "",
      ].join("\n");
    for (const built of [node, bun, deno]) {
      expect(warningsOf(built, "tools/where.ts")).toBe(warned(DIRNAME_ADVICE, FILENAME_ADVICE));
    }
    // Workers have no import.meta.url, and no files.
    expect(warningsOf(worker, "tools/where.ts")).toBe(warned(WORKER_ADVICE, WORKER_ADVICE));
  });

  it("warns of require() only on Workers, and not of one esbuild bundles", async () => {
    const { node, bun, deno, worker } = await uses();
    for (const built of [node, bun, deno]) expect(warningsOf(built, "tools/requires.ts")).toBe("");
    expect(warningsOf(worker, "tools/requires.ts")).toBe(
      [
        `warning: tools/requires.ts:6:45: require ${REQUIRE_ADVICE}`,
        `warning: tools/requires.ts:6:71: require ${REQUIRE_ADVICE}`,
        `warning: tools/requires.ts:8:25: require ${REQUIRE_ADVICE}`,
        "",
      ].join("\n"),
    );
  });

  it("warns of import.meta.url, .dirname and .filename on every target, naming the file, line and column", async () => {
    const { node, bun, deno, worker } = await uses();
    const warned = (advice: string) =>
      [
        `warning: tools/reads.ts:6:59: import.meta.url ${advice}`,
        `warning: tools/reads.ts:8:47: import.meta.dirname ${advice}`,
        `warning: tools/reads.ts:9:40: import.meta.filename ${advice}`,
        "",
      ].join("\n");
    for (const built of [node, bun, deno]) {
      expect(warningsOf(built, "tools/reads.ts")).toBe(warned(PLACE_ADVICE));
    }
    expect(warningsOf(worker, "tools/reads.ts")).toBe(warned(WORKER_PLACE_ADVICE));
  });

  it("warns of what fails: a tool serve answers fails in the bundle", async () => {
    // The build the case above reads the warnings of (node is the default target).
    const { dir, node } = await uses();
    const env = { MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE: "1" };
    const call = async (door: "serve" | "node") => {
      const url = await startDoor(door, { dir, out: node.out }, env);
      const client = await connectClient("v2 pinned to 2026-07-28", { url });
      return client.callTool({ name: "reads", arguments: {} });
    };
    const [served, bundled] = await Promise.all([call("serve"), call("node")]);
    expect(served.content).toEqual([{ type: "text", text: "a note\n" }]);
    expect(bundled).toMatchObject({
      isError: true,
      content: [
        { type: "text", text: expect.stringMatching(/^ENOENT: no such file or directory/) },
      ],
    });
  });

  it("warns of an import() of a path computed at run time on every target, not of one esbuild bundles", async () => {
    const { node, bun, deno, worker } = await uses();
    for (const built of [node, bun, deno, worker]) {
      expect(warningsOf(built, "tools/imports.ts")).toBe(
        `warning: tools/imports.ts:6:28: import() ${COMPUTED_IMPORT_ADVICE}\n`,
      );
    }
  });
});

/**
 * What the advice says instead: on Workers, a static import for a require (a
 * node: module here); everywhere, a file beside the tool imported, not read
 * (text as a JSON string).
 */
const ADVISED = `import { sep } from "node:path";
import data from "../data/greeting.json";
import note from "../data/note.json";

export default {
  description: "Reads what it imported",
  handler: () => \`sep \${sep}, \${data.greeting}, \${note}\`,
};
`;

describe("mcp-dir build: what the warnings advise", () => {
  it("builds without a warning and answers alike through every door, workerd's included", async () => {
    const dir = await createServerDir({
      "tools/advised.ts": ADVISED,
      "data/greeting.json": JSON.stringify({ greeting: "hello" }),
      "data/note.json": JSON.stringify("a note\n"),
    });
    const outs = new Map<Target, string>();
    for (const target of new Set(DOORS.map(targetOf))) {
      if (target === undefined) continue;
      const out = join(await createEmptyDir(), "out");
      await buildFor(dir, out, target);
      outs.set(target, out);
    }
    // Every door started and asked at once: each has a process (workerd's a Miniflare) of its own.
    const answers = await Promise.all(
      DOORS.map(async (door) => {
        const target = targetOf(door);
        const out = target === undefined ? "" : (outs.get(target) ?? "");
        const env = { MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE: "1" };
        const url = await startDoor(door, { dir, out }, env);
        const client = await connectClient("v2 pinned to 2026-07-28", { url });
        return client.callTool({ name: "advised", arguments: {} });
      }),
    );
    for (const [i, door] of DOORS.entries()) {
      expect(answers[i]?.content, door).toEqual([{ type: "text", text: "sep /, hello, a note\n" }]);
    }
  });
});
