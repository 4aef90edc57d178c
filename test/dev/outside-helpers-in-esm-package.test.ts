/**
 * A helper outside the server directory, in an ES module package (a
 * monorepo's shared folder under a package.json with "type": "module"), is
 * author code: compiled, loaded afresh on save. Node runs the `.js` files of
 * such a package as ES modules, out of require.cache's reach, and a `.ts`
 * one it cannot read at all. Each import of a file with top-level await
 * (tsx's tsImport) adds tsx hooks that pass every other file, whatever its
 * extension, to the ".js" handler: a `.ts` helper failed with 'Unknown file
 * extension ".ts"' from then on.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestClient, type TestClient } from "../../src/testing/index.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(removeServerDirs);

const WAITS = `import { defineTool } from "mcp-dir";
await Promise.resolve();
export default defineTool({ description: "Awaits at its top level", handler: () => "waited" });
`;

const say = (helper: string) => `import { defineTool } from "mcp-dir";
import { word } from "${helper}";
export default defineTool({ description: "Says the shared word", handler: () => word });
`;

describe.each([
  ["TypeScript", "word.ts", (word: string) => `export const word: string = "${word}";\n`],
  ["JavaScript", "word.js", (word: string) => `export const word = "${word}";\n`],
])("a %s helper outside the directory, in an ES module package", (_, name, exportsWord) => {
  it.each([
    ["alone", {}],
    ["beside a file with top-level await", { "server/tools/waits.ts": WAITS }],
  ])("loads, and loads again when saved (%s)", async (_, beside) => {
    const root = await createServerDir({
      ...beside,
      "server/tools/say.ts": say(`../../shared/${name}`),
      [`shared/${name}`]: exportsWord("one"),
    });
    const client = await createTestClient(join(root, "server"), { watch: true });
    clients.push(client);
    const text = async () =>
      ((await client.callTool({ name: "say" })).content as { text: string }[])[0]?.text;
    expect(client.problems).toEqual([]);
    expect(await text()).toBe("one");

    const reloaded = client.nextReload();
    await writeFile(join(root, `shared/${name}`), exportsWord("two"));
    const outcome = await reloaded;
    expect(outcome.problems).toEqual([]);
    expect(outcome.applied).toEqual(["tools/say.ts"]);
    expect(await text()).toBe("two");
  });
});

describe("a helper outside the directory, written as an ES module", () => {
  it("gets the copy of a package that the directory's files get", async () => {
    // A package with a build for import and one for require, each counting on its own.
    const counter = "let count = 0;\nexport const next = () => ++count;\n";
    const root = await createServerDir({
      "node_modules/tally/package.json": JSON.stringify({
        name: "tally",
        exports: { import: "./index.mjs", require: "./index.cjs" },
      }),
      "node_modules/tally/index.mjs": counter,
      "node_modules/tally/index.cjs": "let count = 0;\nexports.next = () => ++count;\n",
      "shared/count.ts": 'import { next } from "tally";\nexport const fromHelper = () => next();\n',
      "server/tools/count.ts": `import { defineTool } from "mcp-dir";
import { next } from "tally";
import { fromHelper } from "../../shared/count.ts";
export default defineTool({ description: "Counts twice", handler: () => \`\${next()} \${fromHelper()}\` });
`,
    });
    const client = await createTestClient(join(root, "server"));
    clients.push(client);
    const { content } = await client.callTool({ name: "count" });
    expect(content).toEqual([{ type: "text", text: "1 2" }]);
  });
});
