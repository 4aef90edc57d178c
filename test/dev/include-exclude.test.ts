/**
 * `mcp-dir dev` obeys the config file's include and exclude at every save,
 * as the start-up scan does: a file saved where they leave it out is never
 * imported, reloaded or listed.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createEmptyDir } from "../loader/helpers/server-dir.js";
import {
  leavesMarker,
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
  TOOLS_CHANGED,
  toolFile,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(removeServerDirs);

describe("mcp-dir dev: include and exclude", () => {
  it("a file saved into an excluded folder is not loaded; the list does not change", async () => {
    const markers = await createEmptyDir();
    const dev = await startDev({
      "mcp-dir.config.ts": 'export default { exclude: ["tools/drafts/**"] };\n',
      "tools/echo.ts": toolFile("Echoes", "echo"),
    });
    dev.write("tools/drafts/wip.ts", leavesMarker(join(markers, "wip")));
    dev.write("tools/drafts/deeper/more.ts", leavesMarker(join(markers, "more")));
    // Saved after the drafts: once it is reloaded, their events were handled.
    dev.write("tools/echo.ts", toolFile("Echoes v2", "echo"));
    await dev.waitForLine(reloaded("tools/echo.ts"));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    await dev.client.ping();

    expect(existsSync(join(markers, "wip"))).toBe(false);
    expect(existsSync(join(markers, "more"))).toBe(false);
    expect(dev.lines().filter((line) => line.includes("drafts"))).toEqual([]);
    expect((await dev.client.listTools()).tools.map((tool) => tool.description)).toEqual([
      "Echoes v2",
    ]);
    expect(dev.count(TOOLS_CHANGED)).toBe(1);
  });

  it("a file saved where include does not reach is not loaded", async () => {
    const markers = await createEmptyDir();
    const dev = await startDev({
      "mcp-dir.config.ts": 'export default { include: ["tools/public/**"] };\n',
      "tools/public/echo.ts": toolFile("Echoes", "echo"),
    });
    dev.write("tools/admin.ts", leavesMarker(join(markers, "admin")));
    dev.write("tools/public/ping.ts", toolFile("Pings", "pong"));
    await dev.waitForLine(reloaded("tools/public/ping.ts"));
    await dev.client.ping();

    expect(existsSync(join(markers, "admin"))).toBe(false);
    expect(dev.lines().filter((line) => line.includes("admin"))).toEqual([]);
    expect((await dev.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "public_echo",
      "public_ping",
    ]);
  });
});
