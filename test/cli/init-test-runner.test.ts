/**
 * mcp-dir init in an npm project with a test script of its own writes the
 * example tool's test for the runner that script runs, or none: a node:test
 * file under vitest or jest is a failing suite in the project's own `npm test`.
 */
import { execFile } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import {
  createEmptyDir,
  linkPackages,
  linkRepoPackages,
  removeServerDirs,
} from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

/** An npm project whose package.json has these scripts and devDependencies. */
async function project(
  scripts: Record<string, string>,
  devDependencies: Record<string, string>,
): Promise<string> {
  const dir = await createEmptyDir();
  const packageJson = { name: "shop", version: "1.0.0", type: "module", scripts, devDependencies };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(packageJson, null, 2)}\n`);
  return dir;
}

describe("mcp-dir init in a project with a test script of its own", () => {
  it("writes a vitest test when the script runs vitest, which passes there", async () => {
    const cwd = await project({ test: "vitest run" }, { vitest: "^4.0.0" });
    const { code, stdout } = await runCli(["init"], { cwd });
    expect({ code, added: stdout.split("\n")[0] }).toEqual({
      code: 0,
      added:
        "Added: tsconfig.json, mcp-dir.config.ts, tools/greet.ts, test/greet.test.ts, prompts/summarize.md, resources/about.md",
    });
    const test = await readFile(join(cwd, "test/greet.test.ts"), "utf8");
    expect(test).toContain('import { afterAll, beforeAll, describe, expect, it } from "vitest";');
    await linkPackages(cwd);
    await linkRepoPackages(cwd, ["vitest"]);
    // The project's own runner, as its npm test runs it (not this run's workers).
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST")),
    );
    const vitest = join(cwd, "node_modules", "vitest", "vitest.mjs");
    const { stdout: ran } = await promisify(execFile)(process.execPath, [vitest, "run"], {
      cwd,
      env: { ...env, NO_COLOR: "1" },
    });
    expect(ran).toMatch(/Tests {2}2 passed \(2\)/);
  });

  it("writes none for another runner's script, and says why", async () => {
    const cwd = await project({ test: "jest" }, { jest: "^30.0.0" });
    expect(await runCli(["init"], { cwd })).toEqual({
      code: 0,
      stdout: `Added: tsconfig.json, mcp-dir.config.ts, tools/greet.ts, prompts/summarize.md, resources/about.md
Added to package.json: dependencies mcp-dir, zod; devDependencies @types/node, tsx, typescript; scripts start, dev, list, check, typecheck
Left alone in package.json: scripts test
Not added: test/greet.test.ts, a test of tools/greet.ts for node:test or vitest, which package.json's test script ("jest") does not run; see "Testing your server" in mcp-dir's README to write one for your runner
Next:
  npm install && npx mcp-dir serve .
`,
      stderr: expect.any(String),
    });
    expect(await readdir(cwd)).not.toContain("test");
  });
});
