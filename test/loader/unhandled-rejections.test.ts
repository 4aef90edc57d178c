import { afterAll, afterEach, describe, expect, it } from "vitest";
import { PROCESS_WIDE, runCli, stopAll } from "../cli/helpers/cli.js";
import {
  type DevServer,
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

/** A tool that leaves `rejection` unhandled at its top level. */
const rejecting = (rejection: string) => `import { defineTool } from "mcp-dir";
Promise.reject(${rejection});
export default defineTool({ description: "Rejects at load", handler: () => "served" });
`;

const FILES = {
  "tools/good.ts": toolFile("Works", "ok"),
  "tools/reject.ts": rejecting('new Error("x")'),
  "tools/reject-symbol.ts": rejecting('Symbol("s")'),
};

const WHAT_TO_DO = "await the promise, or handle its rejection with .catch()";
const PROBLEMS = [
  `tools/reject-symbol.ts: raised an unhandled rejection while loading: Symbol(s); ${WHAT_TO_DO}`,
  `tools/reject.ts: raised an unhandled rejection while loading: Error: x (2:16); ${WHAT_TO_DO}`,
];

/** The log messages at level error the client was sent: their `data`. */
async function errorLogs(dev: DevServer, count: number): Promise<unknown[]> {
  const found = await dev.notifications.waitForCount(
    (item) => item.method === LOG_MESSAGE && item.params?.level === "error",
    count,
    `${count} log message(s) at level error`,
  );
  return found.map((item) => item.params?.data);
}

describe("a promise rejected and left unhandled at a file's top level", () => {
  it("is a problem of that file in check", async () => {
    const dir = await createServerDir(FILES);
    expect(await runCli(["check", dir], PROCESS_WIDE)).toEqual({
      code: 1,
      stdout: `${PROBLEMS.map((problem) => `error: ${problem}`).join("\n")}
mcp-dir check: 2 problems in ${dir}; fix them and run again
`,
      stderr: "",
    });
  });

  it("is a problem in a file with top-level await, imported as an ES module", async () => {
    const dir = await createServerDir({
      "tools/later.ts": `await Promise.resolve();
Promise.reject(new Error("after an await"));
export default { description: "Rejects after an await", handler: () => "served" };
`,
    });
    expect(await runCli(["check", dir], PROCESS_WIDE)).toEqual({
      code: 1,
      stdout: `error: tools/later.ts: raised an unhandled rejection while loading: Error: after an await (2:16); ${WHAT_TO_DO}
mcp-dir check: 1 problem in ${dir}; fix it and run again
`,
      stderr: "",
    });
  });

  it("stops serve with that problem, as any load problem does", async () => {
    const dir = await createServerDir(FILES);
    expect(await runCli(["serve", dir], PROCESS_WIDE)).toEqual({
      code: 1,
      stdout: "",
      stderr: `${PROBLEMS.map((problem) => `error: ${problem}`).join("\n")}
mcp-dir: 2 problems in ${dir}; fix them and run again
`,
    });
  });

  it("leaves the file out in dev, at start and on a save, and serves the rest", async () => {
    const dev = await startDev(FILES);
    expect(dev.lines().slice(0, 3)).toEqual([
      ...PROBLEMS.map((problem) => `error: ${problem}`),
      `mcp-dir dev: 2 problems in ${dev.dir}; fix them and save: the rest is served meanwhile`,
    ]);
    // The client connected after the start: it is told of those problems all the same.
    expect(await errorLogs(dev, 2)).toEqual([
      { file: "tools/reject-symbol.ts", message: PROBLEMS[0] },
      { file: "tools/reject.ts", message: PROBLEMS[1] },
    ]);
    const { tools } = await dev.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["good"]);

    dev.write("tools/good.ts", rejecting('new Error("on save")'));
    expect((await errorLogs(dev, 3)).slice(2)).toEqual([
      {
        file: "tools/good.ts",
        message: `tools/good.ts: raised an unhandled rejection while loading: Error: on save (2:16); ${WHAT_TO_DO}`,
      },
    ]);
    await dev.waitForLine("  (the last good version of tools/good.ts stays in service)");
    expect(textOf(await dev.client.callTool({ name: "good", arguments: {} }))).toBe("ok");
    // Not also reported as a stray error of a running server.
    expect(dev.lines().filter((line) => line.includes("author code raised"))).toEqual([]);
  });
});
