import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DirectoryLoad,
  formatProblem,
  formatWarning,
  loadDirectory,
  loadServer,
} from "../../src/loader/index.js";
import { runCli, stopAll } from "../cli/helpers/cli.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const GOOD_TOOL = `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Works", handler: () => "ok" });
`;

describe("files that fail to load", () => {
  let dir: string;
  let load: DirectoryLoad;

  beforeAll(async () => {
    dir = await createServerDir({
      "tools/good.ts": GOOD_TOOL,
      "tools/syntax.ts": `export default {
  description: "x",
  handler: () => {
};
`,
      "tools/syntax-js.mjs": "export default {\n  a: 1,,\n};\n",
      "tools/throws.ts": `const ready = false;
if (!ready) throw new Error("the database is not configured");
export default {};
`,
      "tools/invalid.ts": "export default { handler: () => 1 };\n",
      "tools/invalid-named.ts": `export const ok = { description: "Fine", handler: () => 1 };
export const bad = { description: "Bad input", input: "text", handler: () => 1 };
`,
      "tools/define-throws.ts": `import { defineTool } from "mcp-dir";
// Unnamed: checked once the loader knows its file, export and name.
export default defineTool({ handler: () => 1 } as never);
`,
      "tools/define-named.ts": `import { defineTool } from "mcp-dir";
// Named: checked at once, so the error is thrown while the file loads.
export const tool = defineTool({ name: "named", handler: () => 1 } as never);
`,
      "tools/missing-import.ts": 'import { x } from "./_nope.js";\nexport default x;\n',
      "tools/missing-package.ts": 'import x from "left-pad-nowhere";\nexport default x;\n',
      // Through a helper: the import that fails is the helper's, so its message names the helper.
      "tools/missing-deep.ts": 'import { y } from "./_middle.js";\nexport default y;\n',
      "tools/_middle.ts":
        'import { x } from "./_gone.js";\nimport z from "pad-nowhere";\nexport const y = [x, z];\n',
      "tools/missing-deep-package.ts": 'import { y } from "./_packaged.js";\nexport default y;\n',
      "tools/_packaged.ts": 'import z from "pad-nowhere";\nexport const y = z;\n',
      "tools/bad name.ts": GOOD_TOOL,
      "tools/café.ts": GOOD_TOOL,
      "tools/constants.ts": "export const answer = 42;\n",
      "tools/notes.txt": "not code\n",
      "prompts/notes.json": "{}\n",
    });
    load = await loadDirectory(dir);
  });

  // Positions come from stack traces that tsx source-maps, read as Node writes
  // them though vitest writes this process's stack traces its own way.
  it("reports each problem with its file, export, position and what to do", async () => {
    const { code, stdout } = await runCli(["check", dir]);
    expect(code).toBe(1);
    const problems = stdout
      .split(/\n(?=\S)/)
      .filter((entry) => entry.startsWith("error: "))
      .map((entry) => entry.slice("error: ".length));
    expect(problems).toEqual([
      `tools/bad name.ts (export "default"): the tool name "bad name" derived from the file path is invalid: names use 1 to 128 letters, digits, "_", "-" or "."; rename the file or give the tool a name`,
      `tools/define-named.ts: Tool "named" is invalid (defined at 3:21):
  - description is missing: clients show it to the model, so say what the tool does`,
      `tools/define-throws.ts (export "default"): Tool "define-throws" is invalid:
  - description is missing: clients show it to the model, so say what the tool does`,
      `tools/invalid-named.ts (export "bad"): Tool "invalid-named_bad" is invalid:
  - input got a string; use a zod object (z.object({...})), a shape of zod schemas ({ name: z.string() }), or a JSON Schema object ({ type: 'object', properties: {...} })`,
      `tools/invalid.ts (export "default"): Tool "invalid" is invalid:
  - description is missing: clients show it to the model, so say what the tool does`,
      "tools/missing-deep-package.ts: Cannot find package 'pad-nowhere' imported from tools/_packaged.ts; install it in the server directory (npm install) (tools/_packaged.ts:1:15)",
      "tools/missing-deep.ts: Cannot find module './_gone.js' imported from tools/_middle.ts (tools/_middle.ts:1:19)",
      "tools/missing-import.ts: Cannot find module './_nope.js' imported from tools/missing-import.ts (1:19)",
      "tools/missing-package.ts: Cannot find package 'left-pad-nowhere' imported from tools/missing-package.ts; install it in the server directory (npm install) (1:15)",
      'tools/syntax-js.mjs: SyntaxError: Expected identifier but found "," (2:8)',
      `tools/syntax.ts: SyntaxError: Expected "}" but found ";" (4:2)`,
      "tools/throws.ts: threw while loading: Error: the database is not configured (2:19)",
    ]);
    expect(load.problems).toHaveLength(problems.length);
  });

  it("warns about files that serve nothing and names the spec discourages", () => {
    expect(load.warnings.map(formatWarning)).toEqual([
      `prompts/notes.json: is ignored: prompts/ holds .ts, .mts, .js, .mjs or .md files; start its name with "_" to keep it there quietly`,
      `tools/café.ts (export "default"): Tool name "café" has characters other than letters, digits, "_", "-" and ".", which MCP discourages and some clients refuse; rename it`,
      `tools/constants.ts: exports no definition, so it serves nothing; export a tool (as default or named), or rename the file to "_constants.ts" if it is a helper`,
      `tools/notes.txt: is ignored: tools/ holds .ts, .mts, .js, .mjs files; start its name with "_" to keep it there quietly`,
    ]);
  });

  it("keeps the files that loaded, and none of a file with a problem", () => {
    expect([...load.sources.keys()]).toEqual([
      "prompts/notes.json",
      "tools/café.ts",
      "tools/constants.ts",
      "tools/good.ts",
      "tools/notes.txt",
    ]);
    expect(load.sources.get("tools/good.ts")?.map((entry) => entry.fallbackName)).toEqual(["good"]);
    expect(load.sources.get("tools/constants.ts")).toEqual([]);
  });
});

describe("name collisions", () => {
  it("names both files, whether the names were derived or given", async () => {
    const dir = await createServerDir({
      "tools/math.ts": `export const add = { description: "Add (named export)", handler: () => 1 };\n`,
      "tools/math/add.ts": `export default { description: "Add (own file)", handler: () => 1 };\n`,
      "prompts/a.ts": `export default { name: "hello", messages: [{ role: "user", content: "Hi" }] };\n`,
      "prompts/b.md": "---\nname: hello\n---\nHello\n",
      "tools/dupe.ts": `export const one = { name: "same", description: "One", handler: () => 1 };
export const two = { name: "same", description: "Two", handler: () => 2 };
`,
      "resources/config.json": "{}\n",
      "resources/shadow.ts": `export default { uri: "file:///config.json", read: () => "{}" };\n`,
    });
    const { problems } = await loadServer(dir);
    expect(problems.map(formatProblem)).toEqual([
      'prompts/b.md: Prompt "hello" is defined in both prompts/a.ts and prompts/b.md; rename one of them',
      'resources/shadow.ts: Resource URI "file:///config.json" is defined in both resources/config.json and resources/shadow.ts; rename one of them',
      'tools/dupe.ts: Tool "same" is defined twice in tools/dupe.ts; rename one of them',
      'tools/math/add.ts: Tool "math_add" is defined in both tools/math.ts and tools/math/add.ts; rename one of them',
    ]);
  });
});

describe("a process that has loaded files with top-level await many times (a long dev session)", () => {
  it("still names where an import of a missing module is", async () => {
    // Each such load adds tsx's hooks around require's resolution: the stack of a failed
    // require grows with them, and the author's frame must not fall off its end.
    const awaiting = await createServerDir(
      {
        "tools/later.ts":
          'await Promise.resolve();\nexport default { description: "Later", handler: () => "later" };\n',
      },
      { packageJson: { type: "module" } },
    );
    for (let load = 0; load < 40; load++) await loadServer(awaiting);
    const missing = await createServerDir({
      "tools/missing-import.ts": 'import { x } from "./_nope.js";\nexport default x;\n',
    });
    const { problems } = await loadServer(missing);
    expect(problems.map(formatProblem)).toEqual([
      "tools/missing-import.ts: Cannot find module './_nope.js' imported from tools/missing-import.ts (1:19)",
    ]);
  });
});
