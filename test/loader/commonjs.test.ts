import { afterAll, describe, expect, it } from "vitest";
import { loadServer } from "../../src/loader/index.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(removeServerDirs);

describe('a directory whose package.json has no "type": "module"', () => {
  it("loads its TypeScript files (run as CommonJS) with the same names and exports", async () => {
    const dir = await createServerDir(
      {
        "tools/plain.ts": 'export default { description: "Plain", handler: () => "plain" };\n',
        "tools/defined.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({ description: "Defined", input: { n: z.number() }, handler: ({ n }) => n });
`,
        "tools/named.ts": `export const one = { description: "One", handler: () => 1 };
export const two = { description: "Two", handler: () => 2 };
`,
        "tools/legacy.js": 'module.exports = { description: "CommonJS", handler: () => "cjs" };\n',
      },
      { packageJson: { name: "commonjs-server" } },
    );
    const { server, problems, load } = await loadServer(dir);
    expect(problems).toEqual([]);
    expect(load.warnings).toEqual([]);
    expect(server.registry.tools.map((tool) => tool.name)).toEqual([
      "defined",
      "legacy",
      "named_one",
      "named_two",
      "plain",
    ]);
    expect(server.registry.tool("defined")?.descriptor.inputSchema).toEqual({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });
  });
});
