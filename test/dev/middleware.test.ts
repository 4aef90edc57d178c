/**
 * `mcp-dir dev` and a folder's `_middleware.ts`, with a client connected:
 * a new one applies to the next call, a saved one recomposes its subtree in
 * place with no list_changed, a broken one keeps its last good version, and
 * a deleted one is gone.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  type DevServer,
  removeServerDirs,
  startDev,
  stopDevServers,
  TOOLS_CHANGED,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(removeServerDirs);

const ECHO = `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Says what its middleware left",
  handler: (_args, ctx) => String(ctx.locals.tag ?? "none"),
});
`;

const tagging = (tag: string) => `export default (ctx, next) => {
  ctx.locals.tag = ${JSON.stringify(tag)};
  return next();
};
`;

async function tag(dev: DevServer): Promise<string> {
  const result = await dev.client.callTool({ name: "echo", arguments: {} });
  return (result.content as { text: string }[])[0]?.text ?? "";
}

describe("mcp-dir dev: _middleware.ts", () => {
  it("applies a new, saved, broken, fixed and deleted middleware in place, telling no list changed", async () => {
    const dev = await startDev({ "tools/echo.ts": ECHO });
    expect(await tag(dev)).toBe("none");

    dev.write("tools/_middleware.ts", tagging("v1"));
    await dev.waitForLine(/^mcp-dir dev: reloaded tools\/_middleware\.ts in \d+ ms$/);
    expect(await tag(dev)).toBe("v1");

    dev.write("tools/_middleware.ts", "export default (ctx, next) => {");
    await dev.waitForLine("  (the last good version of tools/_middleware.ts stays in service)");
    expect(await tag(dev)).toBe("v1");

    dev.write("tools/_middleware.ts", tagging("v2"));
    await dev.waitForLine(/^mcp-dir dev: reloaded tools\/_middleware\.ts \(fixed\) in \d+ ms$/);
    expect(await tag(dev)).toBe("v2");

    dev.remove("tools/_middleware.ts");
    await dev.waitForLine("mcp-dir dev: removed tools/_middleware.ts");
    expect(await tag(dev)).toBe("none");

    expect(dev.count(TOOLS_CHANGED)).toBe(0);
  });

  it("runs nothing a middleware wraps while it has never loaded, rather than run it unguarded", async () => {
    const dev = await startDev({
      "tools/echo.ts": ECHO,
      "tools/admin/_middleware.ts": "export default (ctx, next) => {",
      "tools/admin/wipe.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Wipes", handler: () => "wiped" });
`,
    });
    await dev.waitForLine("  (nothing tools/admin/_middleware.ts wraps runs until it loads)");
    const refused = await dev.client.callTool({ name: "admin_wipe", arguments: {} });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]?.text).toMatch(
      /^tools\/admin\/_middleware\.ts did not load, so nothing under tools\/admin\/ runs until it does: .+; fix it and save$/,
    );
    // Outside its folder, all runs as before.
    expect(await tag(dev)).toBe("none");

    dev.write("tools/admin/_middleware.ts", "export default () => 'admins only';");
    await dev.waitForLine(
      /^mcp-dir dev: reloaded tools\/admin\/_middleware\.ts \(fixed\) in \d+ ms$/,
    );
    const guarded = await dev.client.callTool({ name: "admin_wipe", arguments: {} });
    expect(guarded.content).toEqual([{ type: "text", text: "admins only" }]);

    dev.remove("tools/admin/_middleware.ts");
    await dev.waitForLine("mcp-dir dev: removed tools/admin/_middleware.ts");
    const open = await dev.client.callTool({ name: "admin_wipe", arguments: {} });
    expect(open.content).toEqual([{ type: "text", text: "wiped" }]);
  });

  it("keeps refusing while a middleware that never loaded fails again, and says so", async () => {
    const dev = await startDev({
      "tools/echo.ts": ECHO,
      "tools/_middleware.ts": "export default 1;",
    });
    await dev.waitForLine("  (nothing tools/_middleware.ts wraps runs until it loads)");
    dev.write("tools/_middleware.ts", "export default (ctx, next) => {");
    await dev.waitForLine(/^error: tools\/_middleware\.ts: .*SyntaxError/);
    expect((await dev.client.callTool({ name: "echo", arguments: {} })).isError).toBe(true);
    expect(dev.lines().filter((line) => line.includes("last good version"))).toEqual([]);
  });
});
