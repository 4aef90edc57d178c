import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  createServerDir,
  linkRepoPackages,
  REPO_ROOT,
  removeServerDirs,
} from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const TS_VERSION = (
  JSON.parse(
    readFileSync(join(REPO_ROOT, "node_modules", "typescript", "package.json"), "utf8"),
  ) as { version: string }
).version;

/** A tool whose handler multiplies `a` by `b`, written as `expression`. */
const multiply = (expression: string) => `import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  description: "Multiplies a by b",
  input: { a: z.string(), b: z.number() },
  handler: ({ a, b }) => String(${expression}),
});
`;

/** A server directory with the project's own TypeScript installed (linked). */
async function serverWithTypeScript(files: Record<string, string>): Promise<string> {
  const dir = await createServerDir(files);
  await linkRepoPackages(dir, ["typescript"]);
  return dir;
}

describe("mcp-dir check --typecheck", () => {
  it("does not type-check what the config's exclude leaves out", async () => {
    const dir = await serverWithTypeScript({
      "mcp-dir.config.ts": 'export default { exclude: ["tools/drafts/**"] };\n',
      "tools/multiply.ts": multiply("Number(a) * b"),
      "tools/drafts/wip.ts": multiply("a * b"),
    });
    expect(await runCli(["check", dir, "--typecheck"])).toEqual({
      code: 0,
      stdout: `mcp-dir check: ${dir} is fine: 1 tool, 0 prompts, 0 resources; no type errors (TypeScript ${TS_VERSION}, default settings: no tsconfig.json)
`,
      stderr: "",
    });
  });

  it("leaves views out: their code runs in the browser, with the DOM's types", async () => {
    const dir = await serverWithTypeScript({
      "tools/multiply.ts": multiply("Number(a) * b"),
      "views/multiply.ts": 'document.getElementById("root")!.textContent = "6 × 7";\n',
    });
    expect(await runCli(["check", dir, "--typecheck"])).toEqual({
      code: 0,
      stdout: `view: ui://multiply (views/multiply.ts) shows multiply
mcp-dir check: ${dir} is fine: 1 tool, 0 prompts, 0 resources, 1 view; no type errors (TypeScript ${TS_VERSION}, default settings: no tsconfig.json)
`,
      stderr: "",
    });
  });

  it("reports a type error that loading does not see, with file:line:col, and exits 1", async () => {
    const dir = await serverWithTypeScript({
      "tools/multiply.ts": multiply("a * b"),
      "prompts/hello.md": "Say hello\n",
    });
    expect(await runCli(["check", dir])).toEqual({
      code: 0,
      stdout: `mcp-dir check: ${dir} is fine: 1 tool, 1 prompt, 0 resources\n`,
      stderr: "",
    });
    expect(await runCli(["check", dir, "--typecheck"])).toEqual({
      code: 1,
      stdout: `error: tools/multiply.ts:7:33: TS2362: The left-hand side of an arithmetic operation must be of type 'any', 'number', 'bigint' or an enum type.
mcp-dir check: 1 type error in ${dir} (TypeScript ${TS_VERSION}, default settings: no tsconfig.json); fix it and run again
`,
      stderr: "",
    });
  });

  it("passes a directory without type errors", async () => {
    const dir = await serverWithTypeScript({
      "tools/multiply.ts": multiply("Number(a) * b"),
      "tools/_shared.ts": "export const unit: number = 1;\n",
    });
    expect(await runCli(["check", "--typecheck", dir])).toEqual({
      code: 0,
      stdout: `mcp-dir check: ${dir} is fine: 1 tool, 0 prompts, 0 resources; no type errors (TypeScript ${TS_VERSION}, default settings: no tsconfig.json)\n`,
      stderr: "",
    });
  });

  it("uses the directory's tsconfig.json, whose include does not narrow what is checked", async () => {
    const dir = await serverWithTypeScript({
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true,
          noUnusedLocals: true,
          skipLibCheck: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          outDir: "build",
          rootDir: "src",
        },
        include: ["src"],
      }),
      "tools/multiply.ts": multiply("Number(a) * b").replace(
        'import { z } from "zod";',
        'import { z } from "zod";\n\nconst unused = 1;',
      ),
    });
    expect(await runCli(["check", dir, "--typecheck"])).toEqual({
      code: 1,
      stdout: `error: tools/multiply.ts:4:7: TS6133: 'unused' is declared but its value is never read.
mcp-dir check: 1 type error in ${dir} (TypeScript ${TS_VERSION}, tsconfig.json); fix it and run again
`,
      stderr: "",
    });
  });

  it("says how to install TypeScript when the project has none, exit 1", async () => {
    const dir = await createServerDir({ "tools/multiply.ts": multiply("Number(a) * b") });
    expect(await runCli(["check", dir, "--typecheck"])).toEqual({
      code: 1,
      stdout: `error: --typecheck uses the project's own TypeScript, and ${dir} has none: install it there (npm install --save-dev typescript) and run again\n`,
      stderr: "",
    });
  });

  it("checks the helpers tools import and the config file, alongside load problems", async () => {
    const dir = await serverWithTypeScript({
      "tools/twice.ts": `import { defineTool } from "mcp-dir";
import { twice } from "../lib/twice";

export default defineTool({ description: "Twice", handler: () => String(twice("2")) });
`,
      "lib/twice.ts": "export const twice = (n: number): number => n * 2;\n",
      "tools/broken.ts": "export default {\n",
      "mcp-dir.config.ts": `import { defineConfig } from "mcp-dir";

export default defineConfig({ name: 42 });
`,
    });
    expect(await runCli(["check", dir, "--typecheck"])).toEqual({
      code: 1,
      stdout: `error: mcp-dir.config.ts: name must be non-empty text
error: tools/broken.ts: SyntaxError: Expected identifier but found end of file (2:1)
mcp-dir check: 2 problems in ${dir}; fix them and run again
error: mcp-dir.config.ts:3:31: TS2322: Type 'number' is not assignable to type 'string'.
error: tools/broken.ts:2:1: TS1005: '}' expected.
error: tools/twice.ts:4:79: TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.
mcp-dir check: 3 type errors in ${dir} (TypeScript ${TS_VERSION}, default settings: no tsconfig.json); fix them and run again
`,
      stderr: "",
    });
  });
});
