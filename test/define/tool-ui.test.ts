import { describe, expect, it } from "vitest";
import { compileTool, defineTool } from "../../src/define/index.js";
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
