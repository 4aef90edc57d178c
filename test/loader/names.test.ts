import { afterAll, describe, expect, it } from "vitest";
import { deriveName } from "../../src/loader/derive-name.js";
import { loadServer } from "../../src/loader/index.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(removeServerDirs);

const TOOL = (description: string) =>
  `import { defineTool } from "mcp-dir";\nexport default defineTool({ description: "${description}", handler: () => "ok" });\n`;

/** Every registered definition as "kind name ← source". */
async function registered(dir: string): Promise<string[]> {
  const { server, problems, load } = await loadServer(dir);
  expect(problems).toEqual([]);
  expect(load.warnings).toEqual([]);
  return server.registry
    .entries()
    .map(({ source, compiled }) => `${compiled.kind} ${compiled.name} ← ${source}`);
}

describe("deriveName", () => {
  it("drops the kind folder and the extension and joins folders with _", () => {
    expect(deriveName("tools/echo.ts")).toBe("echo");
    expect(deriveName("tools/math/add.ts")).toBe("math_add");
    expect(deriveName("prompts/review/deep/security.mjs")).toBe("review_deep_security");
    expect(deriveName("prompts/code-review.md")).toBe("code-review");
  });

  it("appends a named export's name to the file's name", () => {
    expect(deriveName("tools/math.ts", "add")).toBe("math_add");
    expect(deriveName("tools/math/index.ts", "add")).toBe("math_index_add");
    expect(deriveName("tools/math.ts", "default")).toBe("math");
  });
});

describe("names of loaded definitions", () => {
  it("derives names from nested paths, for defineTool and plain objects, .ts and .mjs alike", async () => {
    const dir = await createServerDir({
      "tools/echo.ts": TOOL("Echo"),
      "tools/math/add.ts": 'export default { description: "Add", handler: () => 1 };\n',
      "tools/math/advanced/power.mjs":
        'export default { description: "Power", handler: () => 1 };\n',
      "prompts/review/security.ts":
        'export default { description: "Security review", messages: [{ role: "user", content: "Review it" }] };\n',
      "resources/status.js": 'export default { uri: "status://now", read: () => "fine" };\n',
    });
    expect(await registered(dir)).toEqual([
      "prompt review_security ← prompts/review/security.ts",
      "resource status ← resources/status.js",
      "tool echo ← tools/echo.ts",
      "tool math_add ← tools/math/add.ts",
      "tool math_advanced_power ← tools/math/advanced/power.mjs",
    ]);
  });

  it("registers every named export that is a definition as <file>_<export>, and ignores the rest", async () => {
    const dir = await createServerDir({
      "tools/strings.ts": `import { defineTool } from "mcp-dir";
export const upper = defineTool({ description: "Upper", handler: () => "A" });
export const lower = { description: "Lower", handler: () => "a" };
export const settings = { locale: "en" };
export const VERSION = "1.0";
export function helper() { return 1; }
`,
      "tools/greet.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Greet", handler: () => "hi" });
export const shout = defineTool({ description: "Shout", handler: () => "HI" });
`,
    });
    expect(await registered(dir)).toEqual([
      "tool greet ← tools/greet.ts",
      "tool greet_shout ← tools/greet.ts",
      "tool strings_lower ← tools/strings.ts",
      "tool strings_upper ← tools/strings.ts",
    ]);
  });

  it("lets an explicit name win and registers an object exported twice once", async () => {
    const dir = await createServerDir({
      "tools/renamed.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ name: "custom-name", description: "Renamed", handler: () => 1 });
`,
      "tools/twice.ts": `import { defineTool } from "mcp-dir";
const tool = defineTool({ description: "Twice", handler: () => 1 });
export default tool;
export { tool as alias };
`,
    });
    expect(await registered(dir)).toEqual([
      "tool custom-name ← tools/renamed.ts",
      "tool twice ← tools/twice.ts",
    ]);
  });

  it("takes a branded definition's kind from its brand, a plain object's from its folder", async () => {
    const dir = await createServerDir({
      "prompts/tool-in-prompts.ts": TOOL("A tool kept with the prompts"),
      "prompts/plain.ts": 'export default { messages: [{ role: "user", content: "Hi" }] };\n',
    });
    expect(await registered(dir)).toEqual([
      "prompt plain ← prompts/plain.ts",
      "tool tool-in-prompts ← prompts/tool-in-prompts.ts",
    ]);
  });
});
