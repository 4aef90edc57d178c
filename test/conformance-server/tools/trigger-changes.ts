import { mkdir, writeFile } from "node:fs/promises";
import { defineTool } from "mcp-dir";

// The suite is served with `mcp-dir dev`: these tools save a file into the
// server's own folders, and the reload tells every listening client, as a
// save in an editor would. The generated folders are git-ignored.
const root = new URL("../", import.meta.url);
let saves = 0;

async function save(path: string, text: string): Promise<void> {
  const file = new URL(path, root);
  await mkdir(new URL(".", file), { recursive: true });
  await writeFile(file, text);
}

export const triggerToolChange = defineTool({
  name: "test_trigger_tool_change",
  description: "Changes the tool list (saves tools/generated/dynamic.mjs)",
  handler: async () => {
    saves++;
    await save(
      "tools/generated/dynamic.mjs",
      `export default { name: "test_dynamic_tool", description: "Generated, save ${saves}", handler: () => "dynamic" };\n`,
    );
    return "Mutation triggered";
  },
});

export const triggerPromptChange = defineTool({
  name: "test_trigger_prompt_change",
  description: "Changes the prompt list (saves prompts/generated/dynamic.md)",
  handler: async () => {
    saves++;
    await save(
      "prompts/generated/dynamic.md",
      `---\nname: test_dynamic_prompt\ndescription: Generated, save ${saves}\n---\nA generated prompt.\n`,
    );
    return "Mutation triggered";
  },
});
