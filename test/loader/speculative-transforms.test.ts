/**
 * A first load with no transform cache (a fresh container) transforms files
 * ahead, following the options tsx gave its first transform. Whatever does not
 * follow that pattern (import.meta, another extension, a syntax error) must
 * load exactly as it would one by one: the same tools, the same errors.
 */
import { afterAll, describe, expect, it } from "vitest";
import { runCli, stopAll } from "../cli/helpers/cli.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const tool = (description: string) => `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: ${description},
  input: { message: z.string() },
  handler: ({ message }: { message: string }) => message,
});
`;

const COLD = { env: { TSX_DISABLE_CACHE: "1" } };

describe("a first load without a transform cache", () => {
  it("serves every file, those that do not follow the first one's pattern included", async () => {
    const files: Record<string, string> = {
      "tools/with-meta.ts": tool('"at " + new URL(import.meta.url).pathname.split("/").pop()'),
      "tools/module.mts": tool('"an .mts file"'),
    };
    for (let i = 0; i < 12; i++) files[`tools/plain-${i}.ts`] = tool(`"plain ${i}"`);
    const dir = await createServerDir(files);
    const cold = await runCli(["list", dir], COLD);
    expect(cold).toEqual(await runCli(["list", dir]));
    expect(cold.code).toBe(0);
    for (const description of ["at with-meta.ts", "an .mts file", "plain 0", "plain 11"]) {
      expect(cold.stdout).toContain(description);
    }
  });

  it("loads files while esbuild transforms those after them, each as a load one by one does", async () => {
    // More files than are transformed at once, so some load while the rest are transformed;
    // among them one that needs a package not yet imported, and one whose options differ.
    const files: Record<string, string> = {};
    for (let i = 0; i < 80; i++)
      files[`tools/t${String(i).padStart(2, "0")}.ts`] = tool(`"tool ${i}"`);
    files["tools/t40.ts"] = tool('"at " + new URL(import.meta.url).pathname.split("/").pop()');
    files["tools/t50.ts"] = `import { defineTool } from "mcp-dir";
import { z } from "zod/v3";
export default defineTool({ description: "zod 3", input: { n: z.number() }, handler: ({ n }: { n: number }) => String(n) });
`;
    const dir = await createServerDir(files);
    const cold = await runCli(["list", dir], COLD);
    expect(cold).toEqual(await runCli(["list", dir]));
    expect(cold.code).toBe(0);
    for (const description of ["tool 0", "tool 39", "at t40.ts", "zod 3", "tool 79"]) {
      expect(cold.stdout).toContain(description);
    }
  });

  it("reports a file that does not compile, and where, as a load one by one does", async () => {
    const dir = await createServerDir({
      "tools/a.ts": tool('"a"'),
      "tools/broken.ts": `export default {\n  description: "never";\n};\n`,
      "tools/throws.ts": `const ready: boolean = false;\nif (!ready) throw new Error("not configured");\n`,
    });
    const cold = await runCli(["check", dir], COLD);
    expect(cold).toEqual({
      code: 1,
      stdout: `error: tools/broken.ts: SyntaxError: Expected "}" but found ";" (2:23)
error: tools/throws.ts: threw while loading: Error: not configured (2:19)
mcp-dir check: 2 problems in ${dir}; fix them and run again
`,
      stderr: "",
    });
  });

  it("gives a helper required inside the author's try/catch to the file, not the catch", async () => {
    // Only the file the loader requires waits for its transform outside the timer: a helper it
    // requires in turn is compiled where it is asked for, so the author's catch never sees a wait.
    const dir = await createServerDir({
      "tools/optional.ts": `let extra = "no helper";
try {
  extra = require("../lib/extra.ts").extra;
} catch {}
export default { description: "with " + extra, handler: (): string => extra };
`,
      "lib/extra.ts": `export const extra: string = "the helper";
`,
    });
    const cold = await runCli(["list", dir], COLD);
    expect(cold.code).toBe(0);
    expect(cold.stdout).toContain("with the helper");
  });
});
