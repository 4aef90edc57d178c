/**
 * A prompt's `messages` that is no array of messages (a function meant as
 * `get`, one string, a string among them, a message without content) is a problem that says so and what
 * to write, found by `check` as by every command that loads the directory.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

describe("a prompt whose messages are not an array of messages", () => {
  it("is a problem naming the file, the prompt and what to write instead", async () => {
    const dir = await createServerDir({
      "prompts/built.ts": `import { definePrompt } from "mcp-dir";
export default definePrompt({
  description: "Built",
  messages: ({ topic }) => \`Tell me about \${topic}\`,
});
`,
      "prompts/text.js": `export default { description: "One text", messages: "Say hello." };\n`,
      "prompts/strings.js": `export default { description: "Strings", messages: ["Say hello.", null] };\n`,
      "prompts/untold.js": `export default { description: "Untold", messages: [{ role: "user" }] };\n`,
    });
    const { code, stdout } = await runCli(["check", dir]);
    expect(code).toBe(1);
    const ARRAY = 'messages: [{ role: "user", content: "..." }]';
    expect(stdout).toBe(
      `error: prompts/built.ts (export "default"): Prompt "built" is invalid:
  - messages is a function: to build the messages when the prompt is got, name it get: (args, ctx) => messages; or give ${ARRAY}
error: prompts/strings.js (export "default"): Prompt "strings" is invalid:
  - messages[0] must be a message ({ role: "user", content: "..." }), got a string
  - messages[1] must be a message ({ role: "user", content: "..." }), got null
error: prompts/text.js (export "default"): Prompt "text" is invalid:
  - messages must be an array of messages (${ARRAY}), got a string
error: prompts/untold.js (export "default"): Prompt "untold" is invalid:
  - messages[0].content must be a string or a content block ({ type: "text", text: "..." }), got nothing
mcp-dir check: 4 problems in ${dir}; fix them and run again
`,
    );
  });
});
