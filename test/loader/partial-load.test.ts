import { afterAll, describe, expect, it } from "vitest";
import { loadServer } from "../../src/index.js";
import { loadFile } from "../../src/loader/index.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(removeServerDirs);

const tool = (description: string, name?: string) =>
  `export default { ${name ? `name: "${name}", ` : ""}description: "${description}", handler: () => "${description}" };\n`;

describe("files that give nothing, and files the registry refuses", () => {
  it("warns that an empty file exports no definition (it is not an empty tool)", async () => {
    const dir = await createServerDir({
      "tools/empty.ts": "",
      "tools/blank.js": "\n// nothing yet\n",
    });
    const empty = await loadFile(dir, "tools/empty.ts");
    const blank = await loadFile(dir, "tools/blank.js");
    for (const [load, file, helper] of [
      [empty, "tools/empty.ts", "_empty.ts"],
      [blank, "tools/blank.js", "_blank.js"],
    ] as const) {
      expect(load.problems).toEqual([]);
      expect(load.entries).toEqual([]);
      expect(load.warnings).toEqual([
        {
          file,
          message: `exports no definition, so it serves nothing; export a tool (as default or named), or rename the file to "${helper}" if it is a helper`,
        },
      ]);
    }
  });

  it("serves everything else when one file collides with another", async () => {
    const dir = await createServerDir({
      "tools/a.ts": tool("first", "shared"),
      "tools/b.ts": tool("second", "shared"),
      "tools/c.ts": tool("third"),
    });
    const { server, problems } = await loadServer(dir);
    expect(problems).toEqual([
      {
        file: "tools/b.ts",
        message: 'Tool "shared" is defined in both tools/a.ts and tools/b.ts; rename one of them',
      },
    ]);
    expect(server.registry.tools.map((t) => [t.name, t.descriptor.description])).toEqual([
      ["c", "third"],
      ["shared", "first"],
    ]);
  });
});
