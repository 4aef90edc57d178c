/**
 * A server directory with small limits (50 ms per run, 4096 bytes per
 * result) and handlers that pass them: ones that never finish, one with a
 * longer limit of its own, one with none, one that asks the client, and
 * results of two-byte characters, as large as asked.
 */
export const LIMITED_SERVER = {
  "mcp-dir.config.json": JSON.stringify({
    name: "limited",
    version: "1.0.0",
    callTimeoutMs: 50,
    maxResultBytes: 4096,
  }),
  "tools/hang.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
// Why each hang's signal was aborted, by key: a promise per key, kept by the module.
const aborts = new Map();
function abortOf(key) {
  if (!aborts.has(key)) {
    let resolve;
    aborts.set(key, { promise: new Promise((r) => (resolve = r)), resolve: (why) => resolve(why) });
  }
  return aborts.get(key);
}
export const hang = defineTool({
  name: "hang",
  description: "Never finishes; records why its signal was aborted",
  input: { key: z.string() },
  handler: ({ key }, ctx) => {
    ctx.signal.addEventListener(
      "abort",
      () => abortOf(key).resolve(ctx.signal.reason.name + ": " + ctx.signal.reason.message),
      { once: true },
    );
    return new Promise(() => {});
  },
});
export const abortReason = defineTool({
  name: "abort-reason",
  description: "Waits until hang(key) is aborted, however long, and returns why",
  input: { key: z.string() },
  timeoutMs: 0,
  handler: ({ key }) => abortOf(key).promise,
});
export const outlast = defineTool({
  name: "outlast",
  description: "Reports progress, then waits, with no limit, until hang(key) is aborted",
  input: { key: z.string() },
  timeoutMs: 0,
  handler: async ({ key }, ctx) => {
    await ctx.progress(1);
    await abortOf(key).promise;
    return "outlasted hang " + key;
  },
});
export const slow = defineTool({
  name: "slow",
  description: "Never finishes, under a limit of its own",
  timeoutMs: 80,
  handler: () => new Promise(() => {}),
});`,
  "tools/ask-then-finish.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Asks for a name, then finishes at once",
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "Your name?", schema: { name: z.string() } });
    return answer.action === "accept" ? "Hello, " + answer.content.name : answer.action;
  },
});`,
  "prompts/stuck.ts": `import { definePrompt } from "mcp-dir";
export default definePrompt({
  description: "Never finishes",
  get: () => new Promise(() => {}),
});`,
  "resources/stuck.ts": `import { defineResource } from "mcp-dir";
export default defineResource({
  uri: "memo://stuck",
  timeoutMs: 60,
  read: () => new Promise(() => {}),
});`,
  "tools/big.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Returns count two-byte characters",
  input: { count: z.number().int() },
  handler: ({ count }) => "é".repeat(count),
});`,
  "resources/big.ts": `import { defineResource } from "mcp-dir";
export default defineResource({
  uri: "memo://big",
  read: () => "é".repeat(3000),
});`,
};
