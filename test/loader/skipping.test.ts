import { afterAll, describe, expect, it } from "vitest";
import { loadDirectory, scanDirectory } from "../../src/loader/index.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(removeServerDirs);

const NEVER_LOAD = 'throw new Error("this file must not be loaded");\n';

describe("the scan", () => {
  it("skips helpers, hidden files, tests and type declarations, in any folder", async () => {
    const skipped = [
      "tools/_helper.ts",
      "tools/_private/tool.ts",
      "tools/.hidden.ts",
      "tools/.cache/tool.ts",
      "tools/add.test.ts",
      "tools/math/add.spec.mjs",
      "tools/types.d.ts",
      "tools/types.d.mts",
      "tools/types.d.cts",
      "resources/_drafts/notes.md",
      "resources/.DS_Store",
      "tools/node_modules/pkg/index.js",
    ];
    const kept = [
      "resources/data.d.json",
      "tools/add.test.data.ts",
      "tools/add.ts",
      "tools/spec.ts",
      "tools/test-runner.ts",
    ];
    const dir = await createServerDir(
      Object.fromEntries([...skipped, ...kept].map((file) => [file, "x"])),
    );
    expect((await scanDirectory(dir)).files).toEqual(kept);
  });

  it("skips them even when include names them", async () => {
    const dir = await createServerDir({
      "tools/.hidden/a.ts": "x",
      "tools/_private/a.ts": "x",
      "tools/a.test.ts": "x",
      "tools/a.ts": "x",
    });
    const include = ["tools/.hidden/**", "tools/_private/*.ts", "tools/a.test.ts", "tools/a.ts"];
    expect((await scanDirectory(dir, { include })).files).toEqual(["tools/a.ts"]);
  });
});

describe("loading a directory with skipped files", () => {
  it("never imports them and never warns about them, even when a kept file imports a helper", async () => {
    const dir = await createServerDir({
      "tools/kept.ts": `import { shout } from "./_helper.js";
export default { description: "Uses a helper", handler: () => shout("hi") };
`,
      "tools/_helper.ts": "export const shout = (text: string) => text.toUpperCase();\n",
      "tools/_private/secret.ts": NEVER_LOAD,
      "tools/.hidden.ts": NEVER_LOAD,
      "tools/.cache/tool.ts": NEVER_LOAD,
      "tools/kept.test.ts": NEVER_LOAD,
      "tools/kept.spec.ts": NEVER_LOAD,
      "tools/types.d.ts": "export declare const x: number;\n",
      "prompts/_draft.md": "---\ndescription: [unclosed\n---\nDraft\n",
      "resources/notes.md": "# Notes\n",
      "resources/_drafts/idea.md": "# Idea\n",
      "resources/.DS_Store": new Uint8Array([0, 1, 2]),
    });
    const load = await loadDirectory(dir);
    expect(load.problems).toEqual([]);
    expect(load.warnings).toEqual([]);
    expect([...load.sources.keys()]).toEqual(["resources/notes.md", "tools/kept.ts"]);
  });
});
