/**
 * import() of a file of the directory from an author file loaded as
 * CommonJS: it loads as a static import of it would (TypeScript, any of its
 * spellings), and a save of what it loaded reloads the file that imported it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestClient, type TestClient } from "../../src/testing/index.js";
import { createServerDir, removeServerDirs, type ServerDirOptions } from "./helpers/server-dir.js";

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(removeServerDirs);

/** A tool that answers with what `specifier`'s hello() says, imported when it is called. */
const importing = (specifier: string) => `import { defineTool } from "mcp-dir";

export default defineTool({
  description: "Imports a helper when called",
  handler: async () => (await import(${JSON.stringify(specifier)})).hello(),
});
`;

const helper = (says: string) => `export const hello = (): string => ${JSON.stringify(says)};\n`;

async function answer(client: TestClient, name: string): Promise<unknown> {
  const result = await client.callTool({ name });
  return result.isError ? result : result.content;
}

const text = (value: string) => [{ type: "text", text: value }];

describe.each([
  ["an ES module package", {}],
  ["a package.json without type", { packageJson: {} }],
] satisfies [string, ServerDirOptions][])("import() of a local module in %s", (_, options) => {
  it("loads a TypeScript module by each of its spellings", async () => {
    const dir = await createServerDir(
      {
        "lib/helper.ts": helper("hello from helper"),
        "tools/js.ts": importing("../lib/helper.js"),
        "tools/ts.ts": importing("../lib/helper.ts"),
        "tools/bare.ts": importing("../lib/helper"),
      },
      options,
    );
    const client = await createTestClient(dir);
    clients.push(client);
    for (const name of ["js", "ts", "bare"]) {
      expect(await answer(client, name)).toEqual(text("hello from helper"));
    }
  });

  it("loads a package imported by a file that also imports a local module", async () => {
    const dir = await createServerDir(
      {
        "lib/helper.ts": helper("hello"),
        "tools/both.ts": `import { defineTool } from "mcp-dir";

export default defineTool({
  description: "Imports a helper and a package when called",
  handler: async () => (await import("../lib/helper.js")).hello() + typeof (await import("zod")).z.string,
});
`,
      },
      options,
    );
    const client = await createTestClient(dir);
    clients.push(client);
    expect(await answer(client, "both")).toEqual(text("hellofunction"));
  });

  it("reloads the importer when the module it imported is saved", async () => {
    const dir = await createServerDir(
      { "lib/helper.ts": helper("v1"), "tools/dyn.ts": importing("../lib/helper.js") },
      options,
    );
    const client = await createTestClient(dir, { watch: true });
    clients.push(client);
    expect(await answer(client, "dyn")).toEqual(text("v1"));

    const reloaded = client.nextReload();
    await writeFile(join(dir, "lib/helper.ts"), helper("v2"));
    expect((await reloaded).applied).toEqual(["tools/dyn.ts"]);
    expect(await answer(client, "dyn")).toEqual(text("v2"));
  });
});
