/**
 * A file with top-level await is imported as an ES module, outside
 * require.cache: a save of a helper it imports must still reload it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestClient, type TestClient } from "../../src/testing/index.js";
import {
  createServerDir,
  removeServerDirs,
  type ServerDirOptions,
} from "../loader/helpers/server-dir.js";

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(removeServerDirs);

const helper = (value: string) => `export const V: string = ${JSON.stringify(value)};\n`;

const FILES = {
  "lib/h.ts": helper("v1"),
  "lib/through.ts": 'export { V } from "./h.js";\n',
  "tools/tla.ts": `import { defineTool } from "mcp-dir";
import { V } from "../lib/h.js";
const X = await Promise.resolve("!");
export default defineTool({ description: "Awaits at its top level", handler: () => "tla:" + V + X });
`,
  "tools/deep.ts": `import { defineTool } from "mcp-dir";
import { V } from "../lib/through.js";
await Promise.resolve();
export default defineTool({ description: "Awaits, imports through another", handler: () => "deep:" + V });
`,
  "tools/plain.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Imports no helper", handler: () => "plain" });
`,
};

async function texts(client: TestClient): Promise<unknown[]> {
  const results = [];
  for (const name of ["tla", "deep", "plain"]) {
    results.push((await client.callTool({ name })).content);
  }
  return results.map((content) => (content as { text: string }[])[0]?.text);
}

describe.each([
  ["an ES module package", {}],
  ["a package.json without type", { packageJson: {} }],
] satisfies [string, ServerDirOptions][])("top-level await in %s", (_, options) => {
  it("reloads the files that import a saved helper, directly or through another", async () => {
    const dir = await createServerDir(FILES, options);
    const client = await createTestClient(dir, { watch: true });
    clients.push(client);
    expect(await texts(client)).toEqual(["tla:v1!", "deep:v1", "plain"]);

    const reloaded = client.nextReload();
    await writeFile(join(dir, "lib/h.ts"), helper("v2"));
    expect((await reloaded).applied).toEqual(["tools/deep.ts", "tools/tla.ts"]);
    expect(await texts(client)).toEqual(["tla:v2!", "deep:v2", "plain"]);

    // Once more: what the reloaded files import is known again.
    const again = client.nextReload();
    await writeFile(join(dir, "lib/through.ts"), 'export const V = "through";\n');
    expect((await again).applied).toEqual(["tools/deep.ts"]);
    expect(await texts(client)).toEqual(["tla:v2!", "deep:through", "plain"]);
  });
});

describe("top-level await and packages", () => {
  it("gives the files that await one copy of each package, not one per file", async () => {
    const tally = (name: string) => `import { defineTool } from "mcp-dir";
import { next } from "tally";
await Promise.resolve();
export default defineTool({ description: "Counts in the tally package", handler: () => "${name}:" + next() });
`;
    const dir = await createServerDir({
      "node_modules/tally/package.json": JSON.stringify({ type: "module", main: "index.js" }),
      "node_modules/tally/index.js": "let count = 0;\nexport const next = () => ++count;\n",
      "tools/first.ts": tally("first"),
      "tools/second.ts": tally("second"),
    });
    const client = await createTestClient(dir);
    clients.push(client);
    const text = async (name: string) =>
      ((await client.callTool({ name })).content as { text: string }[])[0]?.text;
    expect([await text("first"), await text("second"), await text("first")]).toEqual([
      "first:1",
      "second:2",
      "first:3",
    ]);
  });
});
