/**
 * `mcp-dir dev` obeys the scan's rule for symbolic links at every save: a link
 * the start-up scan skipped (outside the server directory, a cycle) is never
 * followed later, a link made while dev runs is checked as the scan checks it,
 * and links that stay inside keep working.
 */
import { existsSync, writeFileSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createEmptyDir, createServerDir } from "../loader/helpers/server-dir.js";
import {
  connectDev,
  type DevServer,
  leavesMarker,
  RESOURCE_UPDATED,
  RESOURCES_CHANGED,
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
  textOf,
  toolFile,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(removeServerDirs);

const OUTSIDE =
  "is a symbolic link that leads outside the server directory; skipped (only links whose target stays inside the server directory are followed)";
const CYCLE = "is a symbolic link to a folder that contains it (a cycle); skipped";

/**
 * Saves tools/b.ts as its `version`-th save and waits until dev reloaded it:
 * the events of what was written before it were handled by then.
 */
async function saveTool(dev: DevServer, version: number): Promise<void> {
  dev.write("tools/b.ts", toolFile(`B ${version}`, String(version)));
  await dev.waitForLine(reloaded("tools/b.ts"), version);
  await dev.client.ping();
}

async function resourceUris(dev: DevServer): Promise<string[]> {
  return (await dev.client.listResources()).resources.map((resource) => resource.uri);
}

const START = { "tools/b.ts": toolFile("B 0", "0"), "resources/a.txt": "A\n" };

describe("mcp-dir dev: symbolic links obey the start-up scan's rule", () => {
  it("never imports a file written where a link leading outside points", async () => {
    const outside = await createEmptyDir();
    const markers = await createEmptyDir();
    const dir = await createServerDir(START);
    await symlink(outside, join(dir, "resources/ext"));
    const dev = await connectDev(dir);
    expect(dev.lines()).toContain(`warning: resources/ext: ${OUTSIDE}`);

    writeFileSync(join(outside, "evil.ts"), leavesMarker(join(markers, "imported")));
    writeFileSync(join(outside, "note.txt"), "not for clients\n");
    await saveTool(dev, 1);

    expect(existsSync(join(markers, "imported"))).toBe(false);
    expect(await resourceUris(dev)).toEqual(["file:///a.txt"]);
    expect(dev.lines().filter((line) => line.includes("resources/ext/"))).toEqual([]);
    expect(dev.count(RESOURCES_CHANGED)).toBe(0);
  });

  it("never walks a link that leads back up (a cycle)", async () => {
    const dir = await createServerDir(START);
    await symlink("..", join(dir, "resources/up"));
    const dev = await connectDev(dir);
    expect(dev.lines()).toContain(`warning: resources/up: ${CYCLE}`);

    await saveTool(dev, 1);
    await saveTool(dev, 2);
    expect(dev.lines().filter((line) => line.includes("resources/up/"))).toEqual([]);
    expect(dev.lines().filter((line) => line.includes("watching failed"))).toEqual([]);
    expect(dev.lines().filter((line) => line.includes("reloaded"))).toEqual([
      expect.stringMatching(reloaded("tools/b.ts")),
      expect.stringMatching(reloaded("tools/b.ts")),
    ]);
    expect(await resourceUris(dev)).toEqual(["file:///a.txt"]);
  });

  it("checks a link made while dev runs as the scan does: outside is left out with a warning", async () => {
    const dev = await startDev(START);
    await symlink("/etc/passwd", join(dev.dir, "resources/passwd"));
    await saveTool(dev, 1);

    expect(await resourceUris(dev)).toEqual(["file:///a.txt"]);
    expect(dev.count(RESOURCES_CHANGED)).toBe(0);
    expect(dev.lines()).toContain(`warning: resources/passwd: ${OUTSIDE}`);
  });

  it("a cycle made while dev runs is left out with a warning and never walked", async () => {
    const dev = await startDev(START);
    await symlink("..", join(dev.dir, "resources/up"));
    await saveTool(dev, 1);
    await saveTool(dev, 2);

    expect(dev.lines()).toContain(`warning: resources/up: ${CYCLE}`);
    expect(dev.lines().filter((line) => line.includes("resources/up/"))).toEqual([]);
    expect(await resourceUris(dev)).toEqual(["file:///a.txt"]);
  });

  it("serves what is added where a link inside the directory leads, and its changes", async () => {
    const dir = await createServerDir({ ...START, "shared/one.txt": "one\n" });
    await symlink("../shared", join(dir, "resources/shared"));
    const dev = await connectDev(dir);
    expect(await resourceUris(dev)).toEqual(["file:///a.txt", "file:///shared/one.txt"]);

    await mkdir(join(dir, "shared/more"));
    writeFileSync(join(dir, "shared/more/two.txt"), "two\n");
    await dev.waitForLine(reloaded("resources/shared/more/two.txt"));
    await dev.waitForCount(RESOURCES_CHANGED, 1);
    expect(await resourceUris(dev)).toEqual([
      "file:///a.txt",
      "file:///shared/more/two.txt",
      "file:///shared/one.txt",
    ]);

    dev.remove("shared/one.txt");
    await dev.waitForLine("mcp-dir dev: removed resources/shared/one.txt");
    await dev.waitForCount(RESOURCES_CHANGED, 2);
    expect(await resourceUris(dev)).toEqual(["file:///a.txt", "file:///shared/more/two.txt"]);
  });

  it("reloads a tool reached through a link when a helper its real file imports is saved", async () => {
    const dir = await createServerDir({
      ...START,
      "shared/greet.ts": `import { defineTool } from "mcp-dir";
import { WORD } from "./_word.js";

export default defineTool({ description: "Greets", handler: () => WORD });
`,
      "shared/_word.ts": 'export const WORD = "alpha";\n',
    });
    await symlink("../shared", join(dir, "tools/common"));
    const dev = await connectDev(dir);
    expect(textOf(await dev.client.callTool({ name: "common_greet", arguments: {} }))).toBe(
      "alpha",
    );

    dev.write("shared/_word.ts", 'export const WORD = "beta";\n');
    await dev.waitForLine(reloaded("tools/common/greet.ts"));
    expect(textOf(await dev.client.callTool({ name: "common_greet", arguments: {} }))).toBe("beta");
  });

  it("a change to a file that a link inside leads to reaches the link's subscribers", async () => {
    const dir = await createServerDir({ ...START, "resources/notes.txt": "v1\n" });
    await symlink("notes.txt", join(dir, "resources/alias.txt"));
    const dev = await connectDev(dir);
    await dev.client.subscribeResource({ uri: "file:///alias.txt" });

    dev.write("resources/notes.txt", "v2\n");
    await dev.waitForCount(RESOURCE_UPDATED, 1);
    await dev.client.ping();
    expect(dev.notifications.items.map((n) => `${n.method} ${n.params?.uri}`)).toEqual([
      `${RESOURCE_UPDATED} file:///alias.txt`,
    ]);
    const alias = await dev.client.readResource({ uri: "file:///alias.txt" });
    expect(alias.contents[0]).toMatchObject({ text: "v2\n" });
  });
});
