/**
 * A server directory whose tools run as tasks, each in a way a test can
 * steer without sleeping: gates a test opens by calling `open`, asks made
 * before and after the task begins, a run that ends only when cancelled,
 * errors of the tool and of the protocol.
 */
export const TASK_SERVER = {
  "mcp-dir.config.json": JSON.stringify({ name: "tasks", version: "1.0.0" }),
  "lib/gates.ts": `// Promises by key, kept by the module: a test opens what a handler waits for.
const gates = new Map<string, { promise: Promise<string>; open: (value: string) => void }>();
export function gate(key: string) {
  let entry = gates.get(key);
  if (!entry) {
    let open: (value: string) => void = () => {};
    const promise = new Promise<string>((resolve) => (open = resolve));
    entry = { promise, open };
    gates.set(key, entry);
  }
  return entry;
}`,
  "tools/gated.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { gate } from "../lib/gates.js";
export default defineTool({
  description: "Waits until the test opens its gate, then says what it was opened with",
  task: "optional",
  input: { key: z.string() },
  handler: async ({ key }, ctx) => {
    await ctx.progress(1, 2, "waiting for " + key);
    const value = await gate(key).promise;
    return "opened with " + value;
  },
});`,
  "tools/open.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { gate } from "../lib/gates.js";
export default defineTool({
  description: "Opens a gate",
  input: { key: z.string(), value: z.string().default("") },
  handler: ({ key, value }) => {
    gate(key).open(value);
    return "opened " + key;
  },
});`,
  "tools/confirm.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { gate } from "../lib/gates.js";
export default defineTool({
  description: "Asks for confirmation once working",
  task: "optional",
  input: { key: z.string() },
  handler: async ({ key }, ctx) => {
    await gate(key).promise;
    const answer = await ctx.elicit({ message: "Go on?", schema: { ok: z.boolean() } });
    return answer.action === "accept" && answer.content.ok ? "went on" : "stopped";
  },
});`,
  "tools/ask-first.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { gate } from "../lib/gates.js";
export default defineTool({
  description: "Asks for a name before its task begins, then waits for its gate",
  task: "required",
  input: { key: z.string() },
  handler: async ({ key }, ctx) => {
    const answer = await ctx.elicit({ message: "Your name?", schema: { name: z.string() } }, { key: "name" });
    await gate(key).promise;
    return "Hello, " + (answer.action === "accept" ? answer.content.name : "nobody");
  },
});`,
  "tools/forever.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { gate } from "../lib/gates.js";
export default defineTool({
  description: "Runs until cancelled; says why its signal was aborted through gate 'aborted-<key>'",
  task: "optional",
  timeoutMs: 0,
  input: { key: z.string() },
  handler: ({ key }, ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal.addEventListener("abort", () => {
        gate("aborted-" + key).open(ctx.signal.reason.message);
        reject(ctx.signal.reason);
      });
    }),
});`,
  "tools/abort-reason.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { gate } from "../lib/gates.js";
export default defineTool({
  description: "Waits until forever(key) is aborted and says why",
  input: { key: z.string() },
  handler: ({ key }) => gate("aborted-" + key).promise,
});`,
  "tools/boom.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Throws: a tool error",
  task: "optional",
  handler: () => {
    throw new Error("boom");
  },
});`,
  "tools/unsendable.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Returns what JSON cannot carry: a protocol error",
  task: "optional",
  handler: () => ({ content: [{ type: "text", text: "x" }], _meta: { n: 1n } }),
});`,
  "tools/plain.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Never a task", handler: () => "plain" });`,
};
