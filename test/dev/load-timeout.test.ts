import { afterAll, describe, expect, it } from "vitest";
import {
  LOG_MESSAGE,
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
  textOf,
  toolFile,
} from "./helpers/dev-server.js";

afterAll(async () => {
  await stopDevServers();
  await removeServerDirs();
});

describe("mcp-dir dev: a file that never finishes loading", () => {
  it("is stopped and reported, the last good version answers, and fixing it reloads it", async () => {
    const dev = await startDev(
      { "tools/spin.ts": toolFile("Spins", "first") },
      { args: ["--load-timeout", "300"] },
    );
    dev.write("tools/spin.ts", `while (true) {}\n${toolFile("Spins", "never")}`);
    const message =
      "tools/spin.ts: did not finish loading within 300 ms and was stopped: look for a loop or a wait at its top level that does not end, or raise the limit with --load-timeout <ms> (loadTimeoutMs in code)";
    await dev.waitForLine(`error: ${message}`);
    await dev.waitForLine("  (the last good version of tools/spin.ts stays in service)");
    const log = await dev.waitForCount(LOG_MESSAGE, 1);
    expect(log.params).toMatchObject({ level: "error", data: { file: "tools/spin.ts", message } });
    expect(textOf(await dev.client.callTool({ name: "spin", arguments: {} }))).toBe("first");

    dev.write("tools/spin.ts", toolFile("Spins", "second"));
    await dev.waitForLine(reloaded("tools/spin.ts", " \\(fixed\\)"));
    expect(textOf(await dev.client.callTool({ name: "spin", arguments: {} }))).toBe("second");
  });

  it("does not run a file stopped for its time again at every save of another file", async () => {
    const dev = await startDev(
      { "tools/spin.ts": `while (true) {}\n${toolFile("Spins", "never")}` },
      { args: ["--load-timeout", "300"] },
    );
    dev.write("tools/other.ts", toolFile("Other", "other"));
    const line = await dev.waitForLine(reloaded("tools/other.ts"));
    const ms = Number(/in (\d+) ms$/.exec(line)?.[1]);
    expect(ms).toBeLessThan(300);
    expect(textOf(await dev.client.callTool({ name: "other", arguments: {} }))).toBe("other");
  });
});
