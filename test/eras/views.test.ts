/**
 * Views (MCP Apps, `io.modelcontextprotocol/ui`) are offered only to clients
 * that declare the extension with the view MIME type, in both eras and over
 * both transports: the official clients of each era against the real CLI
 * serving a directory with views/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import {
  closeClients,
  connectClient,
  ERA_ROWS,
  type EraClient,
  SHOWS_VIEWS,
  serveOnce,
  shared,
  VERSION_OF,
} from "./helpers/clients.js";

const VIEW_UI = { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: true };

const FILES = {
  "tools/weather.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Tells the weather",
  input: { city: z.string() },
  handler: ({ city }) => \`Sunny in \${city}\`,
});
`,
  "tools/refresh.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Refreshes the forecast the weather view shows",
  _meta: { ui: { resourceUri: "ui://weather", visibility: ["app"] } },
  handler: () => "refreshed",
});
`,
  "tools/plain.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Nothing to show", _meta: { team: "core" }, handler: () => "ok" });
`,
  "views/weather.html": `---
title: Weather
description: Shows the forecast
csp:
  connectDomains: [https://api.example.com]
prefersBorder: true
---
<!doctype html><html><body><p id="forecast">...</p></body></html>
`,
  "resources/notes.txt": "notes\n",
};

const PAGE = '<!doctype html><html><body><p id="forecast">...</p></body></html>\n';

type Item = Record<string, unknown>;
const items = (result: Item, key: string) => result[key] as Item[];
const byName = (list: Item[], name: string) => list.find((item) => item.name === name);

/** One directory, and one HTTP server of it, for every row: the cases only read. */
let dir: string;
const serve = serveOnce();

beforeAll(async () => {
  dir = await createServerDir(FILES);
});

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

describe.each(ERA_ROWS)("views over %s, the %s client", (transport, kind) => {
  let showing: EraClient;
  let plain: EraClient;

  beforeAll(async () => {
    const target = await serve(transport, dir);
    showing = await connectClient(kind, target, { capabilities: SHOWS_VIEWS });
    plain = await connectClient(kind, target);
  });

  afterAll(closeClients);

  it("advertises the extension to every client: the server supports it", () => {
    for (const client of [showing, plain]) {
      expect(client.protocolVersion()).toBe(VERSION_OF[kind]);
      expect(client.getServerCapabilities()?.extensions).toEqual({
        "io.modelcontextprotocol/ui": {},
      });
    }
  });

  it("links a tool to the view named like it, and keeps a tool's own _meta.ui", async () => {
    const tools = items(await showing.listTools(), "tools");
    expect(tools.map((tool) => tool.name)).toEqual(["plain", "refresh", "weather"]);
    expect(byName(tools, "weather")?._meta).toEqual({ ui: { resourceUri: "ui://weather" } });
    expect(byName(tools, "refresh")?._meta).toEqual({
      ui: { resourceUri: "ui://weather", visibility: ["app"] },
    });
    expect(byName(tools, "plain")?._meta).toEqual({ team: "core" });
  });

  it("lists the view as a ui:// resource with the extension's MIME type and _meta.ui, and reads it", async () => {
    const resources = items(await showing.listResources(), "resources");
    expect(resources.map((resource) => resource.uri)).toEqual([
      "file:///notes.txt",
      "ui://weather",
    ]);
    expect(byName(resources, "weather")).toEqual({
      uri: "ui://weather",
      name: "weather",
      title: "Weather",
      description: "Shows the forecast",
      mimeType: "text/html;profile=mcp-app",
      _meta: { ui: VIEW_UI },
    });
    expect(shared(await showing.readResource({ uri: "ui://weather" }))).toEqual({
      contents: [
        {
          uri: "ui://weather",
          mimeType: "text/html;profile=mcp-app",
          text: PAGE,
          _meta: { ui: VIEW_UI },
        },
      ],
    });
  });

  it("lets the view's client call a tool only the view may call", async () => {
    const result = await showing.callTool({ name: "refresh", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "refreshed" }]);
  });

  it("offers a client that does not show views no view, no link to one, no tool only a view calls", async () => {
    const tools = items(await plain.listTools(), "tools");
    expect(tools.map((tool) => tool.name)).toEqual(["plain", "weather"]);
    expect(byName(tools, "weather")).not.toHaveProperty("_meta");
    expect(byName(tools, "plain")?._meta).toEqual({ team: "core" });
    const resources = items(await plain.listResources(), "resources");
    expect(resources.map((resource) => resource.uri)).toEqual(["file:///notes.txt"]);
    await expect(plain.readResource({ uri: "ui://weather" })).rejects.toThrow(
      "Resource not found: ui://weather",
    );
    await expect(plain.callTool({ name: "refresh", arguments: {} })).rejects.toThrow(
      'Unknown tool: "refresh"',
    );
    const called = await plain.callTool({ name: "weather", arguments: { city: "Oslo" } });
    expect(called.content).toEqual([{ type: "text", text: "Sunny in Oslo" }]);
  });
});

describe("a client that declares the extension without the view MIME type", () => {
  afterAll(closeClients);

  it("is not offered views: the extension requires text/html;profile=mcp-app in mimeTypes", async () => {
    const target = await serve("stdio", dir);
    const client = await connectClient("v1 at 2025-11-25", target, {
      capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/plain"] } } },
    });
    const resources = items(await client.listResources(), "resources");
    expect(resources.map((resource) => resource.uri)).toEqual(["file:///notes.txt"]);
  });
});
