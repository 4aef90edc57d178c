import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  type DevServer,
  LOG_MESSAGE,
  PROMPTS_CHANGED,
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
  TOOLS_CHANGED,
  textOf,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(removeServerDirs);

/** Two tools import tools/_helpers.ts, which imports lib/words.ts; a prompt imports lib/words.ts. */
const FILES = {
  "lib/words.ts": 'export const WORD = "alpha";\n',
  "tools/_helpers.ts": `import { WORD } from "../lib/words.js";

export const label = (tool: string) => \`\${tool} says \${WORD}\`;
export const PUNCTUATION = ".";
`,
  "tools/one.ts": `import { defineTool } from "mcp-dir";
import { label, PUNCTUATION } from "./_helpers.js";

export default defineTool({ description: label("one"), handler: () => label("one") + PUNCTUATION });
`,
  "tools/two.ts": `import { defineTool } from "mcp-dir";
import { label, PUNCTUATION } from "./_helpers.js";

export default defineTool({ description: label("two"), handler: () => label("two") + PUNCTUATION });
`,
  "tools/alone.ts": `import { defineTool } from "mcp-dir";

export default defineTool({ description: "Imports no helper", handler: () => "alone" });
`,
  "prompts/word.ts": `import { definePrompt } from "mcp-dir";
import { WORD } from "../lib/words.js";

export default definePrompt({
  description: \`Says \${WORD}\`,
  get: () => \`The word is \${WORD}\`,
});
`,
};

async function calls(dev: DevServer): Promise<string[]> {
  const results = [];
  for (const name of ["one", "two", "alone"]) {
    results.push(textOf(await dev.client.callTool({ name, arguments: {} })));
  }
  return results;
}

async function promptText(dev: DevServer): Promise<unknown> {
  const { messages } = await dev.client.getPrompt({ name: "word" });
  return messages[0]?.content;
}

describe("mcp-dir dev: helper modules", () => {
  it("reloads every definition file that imports a changed helper, directly or through another", async () => {
    const dev = await startDev(FILES);
    expect(await calls(dev)).toEqual(["one says alpha.", "two says alpha.", "alone"]);

    // lib/words.ts: imported by the prompt, and by both tools through tools/_helpers.ts.
    dev.write("lib/words.ts", 'export const WORD = "beta";\n');
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(await calls(dev)).toEqual(["one says beta.", "two says beta.", "alone"]);
    await dev.waitForCount(PROMPTS_CHANGED, 1);
    expect(await promptText(dev)).toEqual({ type: "text", text: "The word is beta" });
    expect((await dev.client.listTools()).tools.map((tool) => tool.description)).toEqual([
      "Imports no helper",
      "one says beta",
      "two says beta",
    ]);
    await dev.waitForLine(reloaded("tools/two.ts"));
    expect(dev.lines().slice(2)).toEqual([
      expect.stringMatching(reloaded("prompts/word.ts")),
      expect.stringMatching(reloaded("tools/one.ts")),
      expect.stringMatching(reloaded("tools/two.ts")),
    ]);

    // tools/_helpers.ts: both tools, not the prompt.
    dev.write(
      "tools/_helpers.ts",
      `import { WORD } from "../lib/words.js";

export const label = (tool: string) => \`\${tool} now says \${WORD}\`;
export const PUNCTUATION = "!";
`,
    );
    await dev.waitForCount(TOOLS_CHANGED, 2);
    expect(await calls(dev)).toEqual(["one now says beta!", "two now says beta!", "alone"]);
    await dev.client.ping();
    expect(dev.count(TOOLS_CHANGED)).toBe(2);
    expect(dev.count(PROMPTS_CHANGED)).toBe(1);
    await dev.waitForLine(reloaded("tools/two.ts"), 2);
    expect(dev.lines().slice(5)).toEqual([
      expect.stringMatching(reloaded("tools/one.ts")),
      expect.stringMatching(reloaded("tools/two.ts")),
    ]);
  });

  it("keeps both importers of a broken helper on their last good version, and recovers both", async () => {
    const dev = await startDev(FILES);
    dev.write("tools/_helpers.ts", "export const label = (tool: string) => {\n  return tool\n");
    const errors = await dev.notifications.waitForCount(
      (n) => n.method === LOG_MESSAGE,
      2,
      "two error messages",
    );
    expect(errors.map((n) => n.params?.data)).toEqual([
      {
        file: "tools/one.ts",
        message: "tools/one.ts: SyntaxError: Unexpected end of file (tools/_helpers.ts:3:1)",
      },
      {
        file: "tools/two.ts",
        message: "tools/two.ts: SyntaxError: Unexpected end of file (tools/_helpers.ts:3:1)",
      },
    ]);
    expect(await calls(dev)).toEqual(["one says alpha.", "two says alpha.", "alone"]);
    await dev.waitForLine("  (the last good version of tools/two.ts stays in service)");
    expect(dev.lines().slice(2)).toEqual([
      "error: tools/one.ts: SyntaxError: Unexpected end of file (tools/_helpers.ts:3:1)",
      "  (the last good version of tools/one.ts stays in service)",
      "error: tools/two.ts: SyntaxError: Unexpected end of file (tools/_helpers.ts:3:1)",
      "  (the last good version of tools/two.ts stays in service)",
    ]);

    dev.write(
      "tools/_helpers.ts",
      `export const label = (tool: string) => \`\${tool} is back\`;
export const PUNCTUATION = "";
`,
    );
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(await calls(dev)).toEqual(["one is back", "two is back", "alone"]);
    await dev.waitForLine(reloaded("tools/two.ts", " \\(fixed\\)"));
    expect(dev.lines().slice(6)).toEqual([
      expect.stringMatching(reloaded("tools/one.ts", " \\(fixed\\)")),
      expect.stringMatching(reloaded("tools/two.ts", " \\(fixed\\)")),
    ]);
  });
});
