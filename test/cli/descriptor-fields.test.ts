/**
 * A title, icons or annotations of the wrong type (easy to write in plain
 * JavaScript) are problems that say what to write, found by `check` as by
 * every command that loads the directory: served, the official clients would
 * refuse the whole list that holds them, every other definition with it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const ICON = '{ src: "https://example.com/icon.png", mimeType: "image/png" }';

describe("fields a client shows, of the wrong type", () => {
  it("are problems naming the file, the definition, the field and what to write", async () => {
    const dir = await createServerDir({
      "tools/iconic.js": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Icon given as a string",
  title: 42,
  icons: "https://example.com/icon.png",
  annotations: { readOnlyHint: "yes", title: 1 },
  handler: () => "ok",
});
`,
      "tools/hints.js": `export default { description: "Hints", annotations: "read only", handler: () => "ok" };\n`,
      "prompts/icons.js": `export default {
  description: 1,
  icons: [{ src: "https://example.com/a.png", sizes: "48x48", theme: "dim" }, "b.png", {}],
  get: () => "hi",
};
`,
      "resources/note.js": `export default {
  uri: "notes://one",
  mimeType: 7,
  annotations: { audience: ["everyone"], priority: 5, lastModified: "yesterday" },
  read: () => "x",
};
`,
      "tools/fine.js": `export default {
  description: "Fine",
  title: "Fine",
  icons: [{ src: "data:image/png;base64,AA==", mimeType: "image/png", sizes: ["any"], theme: "dark" }],
  annotations: { title: "Fine", readOnlyHint: true, openWorldHint: false },
  handler: () => "ok",
};
`,
    });
    const { code, stdout } = await runCli(["check", dir]);
    expect(code).toBe(1);
    expect(stdout).toBe(
      `error: prompts/icons.js (export "default"): Prompt "icons" is invalid:
  - description must be a string, got a number
  - icons[0].sizes must be an array of strings (["48x48"] or ["any"]), got a string
  - icons[0].theme must be "light" or "dark", got "dim"
  - icons[1] must be an icon (${ICON}), got a string
  - icons[2].src must be a string (an https: URL or a data: URI), got nothing
error: resources/note.js (export "default"): Resource "note" is invalid:
  - annotations.audience must be an array of "user" and "assistant", got an array
  - annotations.priority must be a number from 0 to 1, got 5
  - annotations.lastModified must be an ISO 8601 date and time ("2025-01-12T15:00:58Z"), got "yesterday"
  - mimeType must be a string ("text/markdown"), got a number
error: tools/hints.js (export "default"): Tool "hints" is invalid:
  - annotations must be an object ({ readOnlyHint: true }), got a string
error: tools/iconic.js (export "default"): Tool "iconic" is invalid:
  - title must be a string, got a number
  - icons must be an array of icons ([${ICON}]), got a string
  - annotations.title must be a string, got a number
  - annotations.readOnlyHint must be true or false, got "yes"
mcp-dir check: 4 problems in ${dir}; fix them and run again
`,
    );
  });
});
