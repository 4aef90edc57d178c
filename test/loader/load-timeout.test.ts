import { afterAll, describe, expect, it } from "vitest";
import { runCli, stopAll } from "../cli/helpers/cli.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const GOOD = 'export default { description: "Fine", handler: () => "fine" };\n';

describe("a file that never finishes loading", () => {
  it("fails check with the file and the limit, whether it loops or waits forever", async () => {
    const dir = await createServerDir({
      // Refused by esbuild, before the stuck ones: each is reported for what it is.
      "tools/broken.ts": "export const x = ;\n",
      "tools/good.ts": GOOD,
      "tools/spin.ts": `while (true) {}\n${GOOD}`,
      "tools/wait.ts": `await new Promise(() => {});\n${GOOD}`,
      // Loaded after the stopped one, under the same load timer's next run.
      "tools/zz-after.ts": GOOD,
    });
    // A second: starting esbuild (which the first file pays for) takes a good part of one
    // on a busy machine, and a file stopped while it compiles is not the one to blame.
    const { code, stdout, stderr } = await runCli(["check", dir, "--load-timeout", "1000"]);
    expect({ code, stderr }).toEqual({ code: 1, stderr: "" });
    expect(stdout).toBe(
      `error: tools/broken.ts: SyntaxError: Unexpected ";" (1:18)
error: tools/spin.ts: did not finish loading within 1000 ms and was stopped: look for a loop or a wait at its top level that does not end, or raise the limit with --load-timeout <ms> (loadTimeoutMs in code)
error: tools/wait.ts: did not finish loading within 1000 ms and was stopped: look for a loop or a wait at its top level that does not end, or raise the limit with --load-timeout <ms> (loadTimeoutMs in code)
mcp-dir check: 3 problems in ${dir}; fix them and run again
`,
    );
  });

  it("refuses a limit that is not a positive number of milliseconds", async () => {
    const dir = await createServerDir({ "tools/good.ts": GOOD });
    expect(await runCli(["check", dir, "--load-timeout", "soon"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "mcp-dir: --load-timeout must be a positive whole number of milliseconds, got 'soon'. See 'mcp-dir check --help'\n",
    });
  });
});
