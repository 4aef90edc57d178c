import { describe, expect, it } from "vitest";
import { compileTool, defineResource, defineTool } from "../../src/define/index.js";
import { createServer } from "../../src/index.js";
import { createTestClient } from "../../src/testing/index.js";
import { definitionError } from "./helpers.js";

/** The problems of a tool whose `_meta` is `meta`. */
function uiProblems(meta: unknown): string[] {
  return definitionError(() =>
    defineTool({ name: "t", description: "d", _meta: meta as never, handler: () => "" }),
  ).problems;
}

describe("defineTool: _meta.ui, MCP Apps' view and visibility", () => {
  it("keeps a valid _meta.ui in the descriptor as written", () => {
    const tool = compileTool(
      defineTool({
        description: "Refreshes the forecast",
        _meta: { ui: { resourceUri: "ui://weather", visibility: ["app"] }, team: "core" },
        handler: () => "",
      }),
      "refresh",
    );
    expect(tool.descriptor._meta).toEqual({
      ui: { resourceUri: "ui://weather", visibility: ["app"] },
      team: "core",
    });
  });

  it("refuses a resourceUri that is no ui:// URI", () => {
    expect(uiProblems({ ui: { resourceUri: "views/weather.html" } })).toEqual([
      '_meta.ui.resourceUri must name a view by its ui:// URI, such as "ui://weather" (views/weather.html); got "views/weather.html"',
    ]);
    expect(uiProblems({ ui: { resourceUri: 7 } })).toEqual([
      '_meta.ui.resourceUri must name a view by its ui:// URI, such as "ui://weather" (views/weather.html); got 7',
    ]);
  });

  it("refuses a visibility that is not a list of model and app", () => {
    const said = (got: string) =>
      `_meta.ui.visibility must list who may call the tool, "model" and/or "app" (its view), such as ["app"]; got ${got}`;
    expect(uiProblems({ ui: { visibility: "app" } })).toEqual([said('"app"')]);
    expect(uiProblems({ ui: { visibility: [] } })).toEqual([said("[]")]);
    expect(uiProblems({ ui: { visibility: ["model", "user"] } })).toEqual([
      said('["model","user"]'),
    ]);
  });

  it("refuses a _meta.ui that is not an object, and lists both of its problems", () => {
    expect(uiProblems({ ui: "ui://weather" })).toEqual([
      '_meta.ui must be an object, such as { resourceUri: "ui://weather", visibility: ["model", "app"] }; got "ui://weather"',
    ]);
    expect(uiProblems({ ui: { resourceUri: "https://x", visibility: ["all"] } })).toHaveLength(2);
  });
});

describe('defineTool: the deprecated _meta["ui/resourceUri"]', () => {
  const SHOWS_VIEWS = {
    extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
  };
  const legacy = () =>
    defineTool({
      name: "refresh",
      description: "Refreshes the forecast",
      _meta: { "ui/resourceUri": "ui://weather" },
      handler: () => "",
    });

  it("names the tool's view, as ext-apps' registerAppTool takes it", () => {
    expect(compileTool(legacy(), "refresh").descriptor._meta).toEqual({
      "ui/resourceUri": "ui://weather",
      ui: { resourceUri: "ui://weather" },
    });
  });

  it("refuses one that is no ui:// URI, or names another view than _meta.ui", () => {
    expect(uiProblems({ "ui/resourceUri": "views/weather.html" })).toEqual([
      '_meta["ui/resourceUri"] (deprecated: use _meta.ui.resourceUri) must name a view by its ui:// URI, such as "ui://weather" (views/weather.html); got "views/weather.html"',
    ]);
    expect(
      uiProblems({ "ui/resourceUri": "ui://weather", ui: { resourceUri: "ui://forecast" } }),
    ).toEqual([
      '_meta["ui/resourceUri"] is "ui://weather" and _meta.ui.resourceUri "ui://forecast": name the view once, in _meta.ui.resourceUri',
    ]);
  });

  it("is linked as written, not to a view named like the tool, and is left out for a client that shows no view", async () => {
    const server = createServer({ name: "s", version: "1.0.0" }).add(
      legacy(),
      defineResource({ uri: "ui://refresh", name: "refresh", read: () => "<!doctype html>" }),
      defineResource({ uri: "ui://weather", name: "weather", read: () => "<!doctype html>" }),
    );
    const showing = await createTestClient(server, { capabilities: SHOWS_VIEWS });
    const plain = await createTestClient(server);
    try {
      const [shown] = (await showing.listTools()).tools;
      expect(shown?._meta).toEqual({
        "ui/resourceUri": "ui://weather",
        ui: { resourceUri: "ui://weather" },
      });
      const [bare] = (await plain.listTools()).tools;
      expect(bare?._meta).toBeUndefined();
    } finally {
      await showing.close();
      await plain.close();
      await server.close();
    }
  });
});
