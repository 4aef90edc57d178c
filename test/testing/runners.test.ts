/**
 * mcp-dir/testing as a user's tests import it ("mcp-dir/testing", the
 * package's own entry, with its types): under vitest here, and under
 * node:test and jest in processes of their own.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTestClient } from "mcp-dir/testing";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../loader/helpers/server-dir.js";

const run = promisify(execFile);
const RUNNERS = fileURLToPath(new URL("../fixtures/testing-runners/", import.meta.url));

describe("mcp-dir/testing, imported by its package name", () => {
  it("works under vitest", async () => {
    const client = await createTestClient(`${RUNNERS}server`);
    const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    await client.close();
  });

  it("works under node:test", async () => {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "--test", `${RUNNERS}echo.node-test.ts`],
      { cwd: REPO_ROOT },
    );
    expect(stdout).toMatch(/^# tests 4$/m);
    expect(stdout).toMatch(/^# pass 4$/m);
  });

  it("works under jest", async () => {
    const jest = join(REPO_ROOT, "node_modules", "jest", "bin", "jest.js");
    const { stderr } = await run(
      process.execPath,
      ["--experimental-vm-modules", jest, "--config", `${RUNNERS}jest.config.json`],
      { cwd: REPO_ROOT },
    );
    expect(stderr).toMatch(/^Tests: {7}4 passed, 4 total$/m);
  });
});
