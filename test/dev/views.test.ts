/**
 * `mcp-dir dev` builds a view again when it, or a file it imports, is saved,
 * and tells its subscribers: a 2025 session that subscribed (the v1 SDK
 * client) and a 2026-07-28 listen stream that names it (the v2 client).
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadView } from "../../src/loader/views/load-view.js";
import { CLI } from "../cli/helpers/cli.js";
import { SHOWS_VIEWS } from "../eras/helpers/clients.js";
import { createEmptyDir, createServerDir, REPO_ROOT } from "../loader/helpers/server-dir.js";
import { TestViewCache, viewCacheIn } from "../loader/helpers/view-cache.js";
import { Inbox } from "../server/helpers/inbox.js";
import {
  connectDev,
  LOG_MESSAGE,
  RESOURCE_UPDATED,
  RESOURCES_CHANGED,
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
  TOOLS_CHANGED,
  toolFile,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(removeServerDirs);

const FILES = {
  "tools/weather.ts": toolFile("Tells the weather", "sunny"),
  "tools/clock.ts": toolFile("Tells the time", "noon"),
  "views/weather.ts": `import "./weather.css";
import { headline } from "./_headline.ts";
document.getElementById("root")!.textContent = headline();
`,
  "views/_headline.ts": 'export const headline = () => "Forecast, first draft";\n',
  "views/weather.css": "body { color: navy; }\n",
};

describe("mcp-dir dev: views, to a 2025 session", () => {
  it("builds a view again when it or a file it imports is saved, and tells its subscribers", async () => {
    const dev = await startDev(FILES, { capabilities: SHOWS_VIEWS });
    const page = async () => {
      const { contents } = await dev.client.readResource({ uri: "ui://weather" });
      return (contents[0] as { text: string }).text;
    };
    await dev.client.subscribeResource({ uri: "ui://weather" });
    expect(await page()).toContain("Forecast, first draft");

    dev.write("views/weather.css", "body { color: teal; }\n");
    expect((await dev.waitForCount(RESOURCE_UPDATED, 1)).params).toEqual({ uri: "ui://weather" });
    await dev.waitForLine(reloaded("views/weather.ts"));
    expect(await page()).toContain("color:teal");

    dev.write("views/_headline.ts", 'export const headline = () => "Forecast, second draft";\n');
    await dev.waitForCount(RESOURCE_UPDATED, 2);
    expect(await page()).toContain("Forecast, second draft");

    dev.write("views/weather.ts", 'document.body.textContent = "broken";\nconst = 1;\n');
    await dev.waitForLine(
      'error: views/weather.ts: cannot be built: Expected identifier but found "=" (2:7)',
    );
    await dev.waitForLine("  (the last good version of views/weather.ts stays in service)");
    const logged = await dev.waitForCount(LOG_MESSAGE, 1);
    expect(logged.params).toMatchObject({
      level: "error",
      data: { file: "views/weather.ts" },
    });
    expect(await page()).toContain("Forecast, second draft");

    dev.write("views/weather.ts", 'document.body.textContent = "Forecast, fixed";\n');
    await dev.waitForLine(reloaded("views/weather.ts", " \\(fixed\\)"));
    await dev.waitForCount(RESOURCE_UPDATED, 3);
    expect(await page()).toContain("Forecast, fixed");
    expect(dev.count(RESOURCES_CHANGED)).toBe(0);
  });

  it("lists a new view, and links the tool named like it", async () => {
    const dev = await startDev(FILES, { capabilities: SHOWS_VIEWS });
    const clock = async () =>
      (await dev.client.listTools()).tools.find((tool) => tool.name === "clock");
    expect(await clock()).not.toHaveProperty("_meta");

    dev.write("views/clock.html", "<!doctype html><p>12:00</p>\n");
    await dev.waitForCount(RESOURCES_CHANGED, 1);
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect((await clock())?._meta).toEqual({ ui: { resourceUri: "ui://clock" } });
    const { resources } = await dev.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(["ui://clock", "ui://weather"]);
  });
});

describe("mcp-dir dev: the first view", () => {
  it("is offered from the start, so a host connected before it was saved is offered it", async () => {
    const dev = await startDev(
      { "tools/clock.ts": toolFile("Tells the time", "noon") },
      { capabilities: SHOWS_VIEWS },
    );
    // A 2025 session's capabilities are those of its initialize, for as long as it lasts.
    expect(dev.client.getServerCapabilities()?.extensions).toEqual({
      "io.modelcontextprotocol/ui": {},
    });

    dev.write("views/clock.html", "<!doctype html><p>12:00</p>\n");
    await dev.waitForCount(TOOLS_CHANGED, 1);
    const { tools } = await dev.client.listTools();
    expect(tools.map((tool) => [tool.name, tool._meta])).toEqual([
      ["clock", { ui: { resourceUri: "ui://clock" } }],
    ]);
  });
});

describe("mcp-dir dev: a view from the cache of built views", () => {
  it("builds it again when a file it imports changes", async () => {
    const marker = "/* kept by the view cache */";
    const dir = await createServerDir(FILES);
    const tmp = await createEmptyDir();
    await loadView(dir, "views/weather.ts", new TestViewCache(viewCacheIn(tmp), marker));
    const dev = await connectDev(dir, [], SHOWS_VIEWS, { TMPDIR: tmp });
    const page = async () => {
      const { contents } = await dev.client.readResource({ uri: "ui://weather" });
      return (contents[0] as { text: string }).text;
    };
    await dev.client.subscribeResource({ uri: "ui://weather" });
    expect(await page()).toContain(marker);

    // As long as it was, and saved at a time of its own: the cache tells by the file's times.
    const headline = join(dir, "views/_headline.ts");
    writeFileSync(headline, 'export const headline = () => "Forecast, final draft";\n');
    utimesSync(headline, new Date(Date.UTC(2020, 0, 1)), new Date(Date.UTC(2020, 0, 1)));
    await dev.waitForCount(RESOURCE_UPDATED, 1);
    await dev.waitForLine(reloaded("views/weather.ts"));
    const rebuilt = await page();
    expect(rebuilt).toContain("Forecast, final draft");
    expect(rebuilt).not.toContain(marker);
  });
});

describe("mcp-dir dev: views, to a 2026-07-28 listen stream", () => {
  it("tells a stream that names the view when a file it imports is saved", async () => {
    const dir = await createServerDir(FILES);
    const client = new Client({ name: "views-listen-test", version: "1.0.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: SHOWS_VIEWS,
    } as ConstructorParameters<typeof Client>[1]);
    const updated = new Inbox<Record<string, unknown>>();
    client.setNotificationHandler(RESOURCE_UPDATED, (notification) => {
      updated.push((notification.params ?? {}) as Record<string, unknown>);
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "dev", dir],
      cwd: REPO_ROOT,
      stderr: "ignore",
    });
    await client.connect(transport);
    try {
      const subscription = await client.listen({ resourceSubscriptions: ["ui://weather"] });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ["ui://weather"] });
      const css = join(dir, "views/weather.css");
      mkdirSync(dirname(css), { recursive: true });
      writeFileSync(css, "body { color: olive; }\n");
      expect((await updated.waitFor(() => true, "resources/updated")).uri).toBe("ui://weather");
      const { contents } = await client.readResource({ uri: "ui://weather" });
      expect((contents[0] as { text: string }).text).toContain("color:olive");
      await subscription.close();
    } finally {
      await client.close();
    }
  });
});
