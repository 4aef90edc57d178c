/** `mcp-dir check --typecheck`: what it checks and how it reports (see also check-typecheck-project.test.ts). */
import { afterAll, describe, expect, it } from "vitest";
import { removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";
import { multiply, serverWithTypeScript, TS_VERSION } from "./helpers/typecheck-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

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
});
