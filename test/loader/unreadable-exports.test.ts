import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runCli, stopAll } from "../cli/helpers/cli.js";
import { startDev, stopDevServers, toolFile } from "../dev/helpers/dev-server.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterEach(async () => {
  await stopAll();
  await stopDevServers();
});
afterAll(removeServerDirs);

const FILES = {
  "tools/good.ts": toolFile("Works", "ok"),
  // An ES module's export that is a Proxy, whose every read throws.
  "tools/proxy.ts": `export const tool = new Proxy({}, {
  get() { throw new Error("proxy boom"); },
  getPrototypeOf() { throw new Error("proxy boom"); },
});
`,
  // A CommonJS file whose exports object has a getter that throws.
  "tools/getter.js": `module.exports = {
  description: "Has a getter",
  get handler() { throw new Error("getter boom"); },
};
`,
};

const WHAT_TO_DO =
  "export a plain value: a getter or a Proxy that throws cannot be read as a definition";
const PROBLEMS = [
  `tools/getter.js (export "default"): threw when read: Error: getter boom (3:25); ${WHAT_TO_DO}`,
  `tools/proxy.ts (export "tool"): threw when read: Error: proxy boom (2:17); ${WHAT_TO_DO}`,
];

describe("an export that throws when it is read (a getter, a Proxy)", () => {
  it("is a problem naming the file and the export in check; the rest loads", async () => {
    const dir = await createServerDir(FILES, { packageJson: {} });
    expect(await runCli(["check", dir])).toEqual({
      code: 1,
      stdout: `${PROBLEMS.map((problem) => `error: ${problem}`).join("\n")}
mcp-dir check: 2 problems in ${dir}; fix them and run again
`,
      stderr: "",
    });
  });

  it("leaves the file out in dev, which serves the rest", async () => {
    const dev = await startDev(FILES, { packageJson: {} });
    expect(dev.lines().slice(0, 3)).toEqual([
      ...PROBLEMS.map((problem) => `error: ${problem}`),
      `mcp-dir dev: 2 problems in ${dev.dir}; fix them and save: the rest is served meanwhile`,
    ]);
    const { tools } = await dev.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["good"]);
  });
});
