import { afterAll, afterEach, describe, expect, it } from "vitest";
import { PROCESS_WIDE, runCli, stopAll } from "../cli/helpers/cli.js";
import {
  LOG_MESSAGE,
  startDev,
  stopDevServers,
  textOf,
  toolFile,
} from "../dev/helpers/dev-server.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterEach(async () => {
  await stopAll();
  await stopDevServers();
});
afterAll(removeServerDirs);

const EXITS = `import { defineTool } from "mcp-dir";
if (!process.env.NOT_SET_ANYWHERE) process.exit(3);
export default defineTool({ description: "Exits at load", handler: () => "served" });
`;

const problem = (file: string, position: string, code = 3) =>
  `${file}: called process.exit(${code}) while loading (${position}), which would end the server; throw an Error instead to report a problem`;

const FILES = { "tools/good.ts": toolFile("Works", "ok"), "tools/exits.ts": EXITS };

describe("process.exit() at a file's top level", () => {
  it("is a problem of that file in check, which goes on and reports the rest", async () => {
    const dir = await createServerDir(FILES);
    expect(await runCli(["check", dir], PROCESS_WIDE)).toEqual({
      code: 1,
      stdout: `error: ${problem("tools/exits.ts", "2:44")}
mcp-dir check: 1 problem in ${dir}; fix it and run again
`,
      stderr: "",
    });
  });

  it("is a problem whether the call is caught, or made after a top-level await", async () => {
    const dir = await createServerDir({
      ...FILES,
      "tools/caught.ts": `try {
  process.exit(5);
} catch {}
export default { description: "Caught its exit", handler: () => "served" };
`,
      "tools/later.ts": `await Promise.resolve();
process.exit(4);
export default { description: "Exits after an await", handler: () => "served" };
`,
    });
    const { code, stdout } = await runCli(["check", dir], PROCESS_WIDE);
    expect(code).toBe(1);
    expect(stdout.split("\n").filter((line) => line.startsWith("error: "))).toEqual([
      `error: ${problem("tools/caught.ts", "2:11", 5)}`,
      `error: ${problem("tools/exits.ts", "2:44")}`,
      `error: ${problem("tools/later.ts", "2:9", 4)}`,
    ]);
  });

  it("stops serve with that problem, as any load problem does", async () => {
    const dir = await createServerDir(FILES);
    expect(await runCli(["serve", dir], PROCESS_WIDE)).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: ${problem("tools/exits.ts", "2:44")}
mcp-dir: 1 problem in ${dir}; fix it and run again
`,
    });
  });

  it("leaves the file out in dev, at start and on a save, and the client stays connected", async () => {
    const dev = await startDev(FILES);
    expect(dev.lines().slice(0, 2)).toEqual([
      `error: ${problem("tools/exits.ts", "2:44")}`,
      `mcp-dir dev: 1 problem in ${dev.dir}; fix it and save: the rest is served meanwhile`,
    ]);
    expect((await dev.client.listTools()).tools.map((tool) => tool.name)).toEqual(["good"]);

    dev.write("tools/good.ts", EXITS);
    const logs = await dev.notifications.waitForCount(
      (item) => item.method === LOG_MESSAGE && item.params?.level === "error",
      2,
      "2 log messages at level error",
    );
    // The first is the start's, told to the client once it was initialized.
    expect(logs.map((log) => log.params?.data)).toEqual([
      { file: "tools/exits.ts", message: problem("tools/exits.ts", "2:44") },
      { file: "tools/good.ts", message: problem("tools/good.ts", "2:44") },
    ]);
    await dev.waitForLine("  (the last good version of tools/good.ts stays in service)");
    expect(textOf(await dev.client.callTool({ name: "good", arguments: {} }))).toBe("ok");
    expect(dev.errors).toEqual([]);
  });
});
