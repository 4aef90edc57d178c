import { setTimeout as wait } from "node:timers/promises";
import { defineTool } from "mcp-dir";
import { z } from "zod";

// The suite's tasks scenarios (SEP-2663): tools that run as tasks for a client that
// declares the tasks extension, written as any handler is. What a handler asks before
// it first waits on anything else is asked before its task exists (a multi-round-trip
// request); what it asks later, the task asks (input_required, answered by tasks/update).

export const greet = defineTool({
  name: "greet",
  description: "Greets someone at once (never a task)",
  input: { name: z.string() },
  handler: ({ name }) => `Hello, ${name}!`,
});

export const slowCompute = defineTool({
  name: "slow_compute",
  description: "Computes for the given number of seconds; a task when the client supports tasks",
  task: "optional",
  timeoutMs: 0,
  input: { seconds: z.number().min(0), label: z.string().optional() },
  handler: async ({ seconds, label }, ctx) => {
    await ctx.progress(0, seconds, `computing ${label ?? ""}`.trim());
    // Cancelling the task aborts ctx.signal, which ends the wait.
    await wait(seconds * 1000, undefined, { signal: ctx.signal });
    return `Computed ${label ?? "it"} in ${seconds} s`;
  },
});

export const failingJob = defineTool({
  name: "failing_job",
  description: "Fails after about a second (a tool error); runs only as a task",
  task: "required",
  handler: async (_args, ctx) => {
    await wait(1000, undefined, { signal: ctx.signal });
    throw new Error("The job failed, as it always does");
  },
});

export const protocolErrorJob = defineTool({
  name: "protocol_error_job",
  description: "Ends in a protocol error: its result cannot be sent as JSON",
  task: "optional",
  // A BigInt in the result's _meta: the server's -32603, not the tool's isError.
  handler: () => ({ content: [{ type: "text", text: "unsendable" }], _meta: { n: 1n } }),
});

export const confirmDelete = defineTool({
  name: "confirm_delete",
  description: "Looks for a file, then asks the user to confirm its deletion",
  task: "optional",
  input: { filename: z.string() },
  handler: async ({ filename }, ctx) => {
    // Looking for the file is work: the task exists by the time it asks.
    await wait(10, undefined, { signal: ctx.signal });
    const answer = await ctx.elicit({
      message: `Delete ${filename}?`,
      schema: { confirm: z.boolean().describe("Delete it") },
    });
    return answer.action === "accept" && answer.content.confirm
      ? `Deleted ${filename}`
      : `Kept ${filename}`;
  },
});

export const multiInput = defineTool({
  name: "multi_input",
  description: "Asks two things at once, once working",
  task: "optional",
  handler: async (_args, ctx) => {
    await wait(10, undefined, { signal: ctx.signal });
    const [name, confirm] = await Promise.all([
      ctx.elicit({ message: "Your name?", schema: { name: z.string() } }),
      ctx.elicit({ message: "Go ahead?", schema: { confirm: z.boolean() } }),
    ]);
    const who = name.action === "accept" ? name.content.name : "nobody";
    const go = confirm.action === "accept" && confirm.content.confirm;
    return `${who}: ${go ? "confirmed" : "not confirmed"}`;
  },
});

export const toolWithTask = defineTool({
  name: "test_tool_with_task",
  description: "Asks for a name before its task begins, then greets in the task",
  task: "required",
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(
      { message: "What is your name?", schema: { name: z.string() } },
      { key: "user_name" },
    );
    const name = answer.action === "accept" ? answer.content.name : "stranger";
    await wait(10, undefined, { signal: ctx.signal });
    return `Hello, ${name}! (greeted in a task)`;
  },
});
