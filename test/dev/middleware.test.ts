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
});
