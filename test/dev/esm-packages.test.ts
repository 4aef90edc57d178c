import { afterAll, describe, expect, it } from "vitest";
import { ESM_ONLY_PACKAGES } from "../loader/helpers/server-dir.js";
import {
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
  textOf,
} from "./helpers/dev-server.js";

afterAll(async () => {
  await stopDevServers();
  await removeServerDirs();
});

const tool = (word: string) => `import shout, { walk } from "esm-only";
import { ready } from "tla-package";
import { defineTool } from "mcp-dir";

export default defineTool({
  description: "Uses ES module packages",
  handler: () => \`\${shout(walk("${word}"))} \${ready}\`,
});
`;

describe("mcp-dir dev with ES module packages", () => {
  it("loads a tool that imports them and reloads it on save", async () => {
    const dev = await startDev({ ...ESM_ONLY_PACKAGES, "tools/walk.ts": tool("tree") });
    const first = await dev.client.callTool({ name: "walk", arguments: {} });
    expect(textOf(first)).toBe("WALKED TREE ready");
    dev.write("tools/walk.ts", tool("graph"));
    await dev.waitForLine(reloaded("tools/walk.ts"));
    const second = await dev.client.callTool({ name: "walk", arguments: {} });
    expect(textOf(second)).toBe("WALKED GRAPH ready");
    expect(dev.lines().filter((line) => line.startsWith("error"))).toEqual([]);
  });
});
