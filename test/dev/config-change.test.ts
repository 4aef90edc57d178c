/**
 * A saved config file takes a restart to apply, so `mcp-dir dev` reads it as a
 * start would and says whether that restart would take it: each problem with
 * the file and what to do, or that it is fine. The running server keeps the
 * config it started with either way.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { stopAll } from "../cli/helpers/cli.js";
import {
  removeServerDirs,
  startDev,
  stopDevServers,
  TOOLS_CHANGED,
  textOf,
  toolFile,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const config = (name: string) =>
  `import { defineConfig } from "mcp-dir";\n\nexport default defineConfig({ name: "${name}" });\n`;

const KEPT =
  "  (mcp-dir.config.ts is not applied: the server keeps the config it started with; fix the file, then restart mcp-dir dev)";

async function startWithConfig() {
  const dev = await startDev({
    "mcp-dir.config.ts": config("first"),
    "tools/a.ts": toolFile("A", "a"),
  });
  expect(dev.client.getServerVersion()?.name).toBe("first");
  return dev;
}

describe("mcp-dir dev: a saved config file", () => {
  it("that is valid: says so, and that a restart applies it", async () => {
    const dev = await startWithConfig();
    dev.write("mcp-dir.config.ts", config("second"));
    const line =
      "mcp-dir dev: mcp-dir.config.ts changed and has no problems; restart mcp-dir dev to apply it";
    await dev.waitForLine(line);
    expect(dev.lines().slice(2)).toEqual([line]);
  });

  it("with a syntax error: names the file and the error, and keeps serving", async () => {
    const dev = await startWithConfig();
    dev.write("mcp-dir.config.ts", "export default { name: \n");
    await dev.waitForLine(KEPT);
    expect(dev.lines().slice(2)).toEqual([
      "error: mcp-dir.config.ts: SyntaxError: Unexpected end of file (2:1)",
      KEPT,
    ]);
    expect(textOf(await dev.client.callTool({ name: "a", arguments: {} }))).toBe("a");
  });

  it("that fails validation: names each option and what it must be", async () => {
    const dev = await startWithConfig();
    dev.write("mcp-dir.config.ts", "export default { name: 3, pageSize: -1, colour: 1 };\n");
    await dev.waitForLine(KEPT);
    expect(dev.lines().slice(2)).toEqual([
      expect.stringMatching(
        /^warning: mcp-dir\.config\.ts: "colour" is not an option and is ignored; /,
      ),
      "error: mcp-dir.config.ts: name must be non-empty text",
      "error: mcp-dir.config.ts: pageSize must be a positive integer",
      KEPT,
    ]);
    // The server goes on as it started, and reloads the other files.
    dev.write("tools/a.ts", toolFile("A v2", "a v2"));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(textOf(await dev.client.callTool({ name: "a", arguments: {} }))).toBe("a v2");
  });

  it("that was removed: says a restart serves without it", async () => {
    const dev = await startWithConfig();
    dev.remove("mcp-dir.config.ts");
    const line =
      "mcp-dir dev: mcp-dir.config.ts was removed; restart mcp-dir dev to serve without it";
    await dev.waitForLine(line);
    expect(dev.lines().slice(2)).toEqual([line]);
  });
});
