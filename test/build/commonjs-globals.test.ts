/**
 * `mcp-dir build` warns where a file of the server uses what `serve` gives it
 * (tsx runs it as CommonJS) but a bundle, one ES module, lacks: `__dirname`
 * and `__filename` on every target, and `require` on Workers (Node, Bun and
 * Deno bundles define it). Only the server's own files: never a package's.
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
    return [here, \`\${__filename}\`, located].join(" ");
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

/** A package that uses the globals itself: its own business, not the author's. */
const LOCATED = {
  "node_modules/located/package.json": JSON.stringify({ name: "located", main: "index.js" }),
  "node_modules/located/index.js": "module.exports = __dirname + require('node:path').sep;\n",
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

const DIRNAME_ADVICE =
  'does not exist in the bundle, an ES module (using it throws a ReferenceError; Bun gives the out folder): use import.meta.dirname or new URL("./name", import.meta.url), which are this file\'s folder under serve and the out folder in the bundle';
const FILENAME_ADVICE =
  "does not exist in the bundle, an ES module (using it throws a ReferenceError; Bun gives server.mjs): use import.meta.filename or import.meta.url, which are this file under serve and server.mjs in the bundle";
const WORKER_ADVICE =
  "does not exist on Workers (using it throws a ReferenceError), nor do files to read: import what this file reads (a .json or .txt file imports as its contents)";
const REQUIRE_ADVICE =
  'does not exist on Workers, and esbuild bundles only a require("./file") or require("package") it can resolve: import what it loads with a static import at the top of the file instead (import { sep } from "node:path"), which esbuild bundles (a node: module is the Worker\'s own, with nodejs_compat); not with import(name), whose computed path is not bundled either';

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
  return runCli(["build", dir, "--out", out, "--target", target]);
}

describe("mcp-dir build: CommonJS globals in the server's files", () => {
  it("warns of __dirname and __filename on every target, naming the file, line and column", async () => {
    const dir = await createServerDir({ "tools/where.ts": WHERE, ...LOCATED });
    const warned = (dirname: string, filename: string) =>
      [
        `warning: tools/where.ts:6:18: __dirname ${dirname}`,
        `warning: tools/where.ts:7:22: __filename ${filename}`,
        "",
      ].join("\n");
    for (const target of ["node", "bun", "deno"]) {
      const built = await build(dir, target);
      expect(built.code).toBe(0);
      expect(built.stderr).toBe(warned(DIRNAME_ADVICE, FILENAME_ADVICE));
    }
    // Workers have no import.meta.url, and no files.
    const worker = await build(dir, "cloudflare");
    expect(worker.code).toBe(0);
    expect(worker.stderr).toBe(warned(WORKER_ADVICE, WORKER_ADVICE));
  });

  it("warns of require() only on Workers, and not of one esbuild bundles", async () => {
    const dir = await createServerDir({
      "tools/requires.ts": REQUIRES,
      "tools/_helper.cjs": "module.exports = 'helped';\n",
    });
    const node = await build(dir, "node");
    expect(node).toMatchObject({ code: 0, stderr: "" });
    const worker = await build(dir, "cloudflare");
    expect(worker.code).toBe(0);
    expect(worker.stderr).toBe(
      [
        `warning: tools/requires.ts:6:45: require ${REQUIRE_ADVICE}`,
        `warning: tools/requires.ts:6:71: require ${REQUIRE_ADVICE}`,
        `warning: tools/requires.ts:8:25: require ${REQUIRE_ADVICE}`,
        "",
      ].join("\n"),
    );
  });

  it("warns of an import() of a path computed at run time on every target, not of one esbuild bundles", async () => {
    const dir = await createServerDir({
      "tools/imports.ts": IMPORTS,
      "lib/one.js": 'export default "one";\n',
    });
    for (const target of ["node", "cloudflare"]) {
      const built = await build(dir, target);
      expect(built.code).toBe(0);
      expect(built.stderr).toBe(
        `warning: tools/imports.ts:6:28: import() ${COMPUTED_IMPORT_ADVICE}\n`,
      );
    }
  });
});

/** What the Workers advice for require says instead: a static import, of a node: module here. */
const ADVISED = `import { sep } from "node:path";

export default {
  description: "Reads what it imported",
  handler: () => \`sep \${sep}\`,
};
`;

describe("mcp-dir build: what the warnings advise", () => {
  it("builds without a warning and answers alike through every door, workerd's included", async () => {
    const dir = await createServerDir({ "tools/advised.ts": ADVISED });
    const outs = new Map<Target, string>();
    for (const target of new Set(DOORS.map(targetOf))) {
      if (target === undefined) continue;
      const out = join(await createEmptyDir(), "out");
      await buildFor(dir, out, target);
      outs.set(target, out);
    }
    for (const door of DOORS) {
      const target = targetOf(door);
      const out = target === undefined ? "" : (outs.get(target) ?? "");
      const env = { MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE: "1" };
      const url = await startDoor(door, { dir, out }, env);
      const client = await connectClient("v2 pinned to 2026-07-28", { url });
      const { content } = await client.callTool({ name: "advised", arguments: {} });
      expect(content, door).toEqual([{ type: "text", text: "sep /" }]);
    }
  });
});
