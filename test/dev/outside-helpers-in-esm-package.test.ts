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
