import { afterAll, describe, expect, it } from "vitest";
import { connectToServe, stopAll } from "../cli/helpers/cli.js";
import { textOf } from "../dev/helpers/dev-server.js";
import { createServerDir, ESM_ONLY_PACKAGES, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

/** A tool that uses both packages: a default and a named import, and a top-level-await module. */
const TOOL = `import shout, { walk } from "esm-only";
import { ready } from "tla-package";
import { defineTool } from "mcp-dir";

export default defineTool({
  description: "Uses ES module packages",
  handler: () => \`\${shout(walk("tree"))} \${ready}\`,
});
`;

describe("packages load as Node's ES module loader loads them", () => {
  it("serves a tool that imports an import-only package and one with top-level await", async () => {
    const dir = await createServerDir({ ...ESM_ONLY_PACKAGES, "tools/walk.ts": TOOL });
    const { client, stderr } = await connectToServe(dir);
    const result = await client.callTool({ name: "walk", arguments: {} });
    expect(textOf(result)).toBe("WALKED TREE ready");
    expect(stderr()).not.toMatch(/error/);
  });
});
