/** `mcp-dir check --typecheck`: what it checks and how it reports (see also check-typecheck-project.test.ts). */
import { afterAll, beforeAll, describe, it } from "vitest";
import { removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";
import { multiply, serverWithTypeScript, TS_VERSION } from "./helpers/typecheck-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

// The two describes check directories of their own, each a CPU-bound tsc run: they run at once.

/**
 * One directory holds what a check must pass over, each of which would be a type error if
 * checked: an excluded draft, a view using the DOM; and a helper that is checked. One
 * `tsc` run (seconds of it) serves the three cases, which only read its result.
 */
describe.concurrent("mcp-dir check --typecheck of a directory without type errors", () => {
  let dir: string;
  let result: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    dir = await serverWithTypeScript({
      "mcp-dir.config.ts": 'export default { exclude: ["tools/drafts/**"] };\n',
      "tools/multiply.ts": multiply("Number(a) * b"),
      "tools/_shared.ts": "export const unit: number = 1;\n",
      "tools/drafts/wip.ts": multiply("a * b"),
      "views/multiply.ts": 'document.getElementById("root")!.textContent = "6 × 7";\n',
    });
    result = await runCli(["check", "--typecheck", dir]);
  });

  const passed = () => ({
    code: 0,
    stdout: `view: ui://multiply (views/multiply.ts) shows multiply
mcp-dir check: ${dir} is fine: 1 tool, 0 prompts, 0 resources, 1 view; no type errors (TypeScript ${TS_VERSION}, default settings: no tsconfig.json)
`,
    stderr: "",
  });

  it("does not type-check what the config's exclude leaves out", ({ expect }) => {
    expect(result).toEqual(passed());
  });

  it("leaves views out: their code runs in the browser, with the DOM's types", ({ expect }) => {
    expect(result).toEqual(passed());
  });

  it("passes a directory without type errors, its helpers checked too", ({ expect }) => {
    expect(result).toEqual(passed());
  });
});

describe.concurrent("mcp-dir check --typecheck", () => {
  it("reports a type error that loading does not see, with file:line:col, and exits 1", async ({
    expect,
  }) => {
    const dir = await serverWithTypeScript({
      "tools/multiply.ts": multiply("a * b"),
      "prompts/hello.md": "Say hello\n",
    });
    // Both only read the directory.
    const [loaded, typechecked] = await Promise.all([
      runCli(["check", dir]),
      runCli(["check", dir, "--typecheck"]),
    ]);
    expect(loaded).toEqual({
      code: 0,
      stdout: `mcp-dir check: ${dir} is fine: 1 tool, 1 prompt, 0 resources\n`,
      stderr: "",
    });
    expect(typechecked).toEqual({
      code: 1,
      stdout: `error: tools/multiply.ts:7:33: TS2362: The left-hand side of an arithmetic operation must be of type 'any', 'number', 'bigint' or an enum type.
mcp-dir check: 1 type error in ${dir} (TypeScript ${TS_VERSION}, default settings: no tsconfig.json); fix it and run again
`,
      stderr: "",
    });
  });
});
