/** `mcp-dir check --typecheck` and the project: its tsconfig.json, its TypeScript, its helpers (split from check-typecheck.test.ts so the two run side by side). */
import { afterAll, describe, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";
import { multiply, serverWithTypeScript, TS_VERSION } from "./helpers/typecheck-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

// Each case checks a directory of its own, most with a CPU-bound tsc run: they run at once.
describe.concurrent("mcp-dir check --typecheck, with the project around it", () => {
  it("uses the directory's tsconfig.json, whose include does not narrow what is checked", async ({
    expect,
  }) => {
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

  it("says how to install TypeScript when the project has none, exit 1", async ({ expect }) => {
    const dir = await createServerDir({ "tools/multiply.ts": multiply("Number(a) * b") });
    expect(await runCli(["check", dir, "--typecheck"])).toEqual({
      code: 1,
      stdout: `error: --typecheck uses the project's own TypeScript, and ${dir} has none: install it there (npm install --save-dev typescript) and run again\n`,
      stderr: "",
    });
  });

  it("checks the helpers tools import and the config file, alongside load problems", async ({
    expect,
  }) => {
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
