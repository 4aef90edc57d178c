import { afterAll, describe, expect, it } from "vitest";
import { isSkipped, loadDirectory } from "../../src/loader/index.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(removeServerDirs);

const NEVER_LOAD = 'throw new Error("this file must not be loaded");\n';

describe("isSkipped", () => {
  it("skips helpers, hidden files, tests and type declarations, in any folder", () => {
    const skipped = [
      "tools/_helper.ts",
      "tools/_private/tool.ts",
      "tools/.hidden.ts",
      "tools/.cache/tool.ts",
      "tools/add.test.ts",
      "tools/math/add.spec.mjs",
      "tools/types.d.ts",
      "tools/types.d.mts",
      "resources/_drafts/notes.md",
      "resources/.DS_Store",
      "tools/node_modules/pkg/index.js",
    ];
    const kept = ["tools/add.ts", "tools/test-runner.ts", "tools/spec.ts", "resources/data.d.json"];
    expect(skipped.filter((path) => !isSkipped(path))).toEqual([]);
    expect(kept.filter(isSkipped)).toEqual([]);
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
