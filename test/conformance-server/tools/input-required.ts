import { defineTool } from "mcp-dir";
import { z } from "zod";

// The suite's multi-round-trip scenarios (SEP-2322), written as any handler is:
// with ctx.elicit, ctx.sample and ctx.roots. On 2026-07-28 an unanswered ask ends
// the run with an input_required result; keys are given where the suite expects one.

const askName = { message: "What is your name?", schema: { name: z.string() } };
const askConfirm = { message: "Please confirm", schema: { ok: z.boolean() } };

export const elicitation = defineTool({
  name: "test_input_required_result_elicitation",
  description: "MRTR: returns InputRequiredResult with elicitation request",
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(askName, { key: "user_name" });
    return answer.action === "accept"
      ? `Hello, ${answer.content.name}!`
      : `No name: ${answer.action}`;
  },
});

export const sampling = defineTool({
  name: "test_input_required_result_sampling",
  description: "MRTR: returns InputRequiredResult with sampling request",
  handler: async (_args, ctx) => {
    const reply = await ctx.sample(
      {
        messages: [
          { role: "user", content: { type: "text", text: "What is the capital of France?" } },
        ],
        maxTokens: 100,
      },
      { key: "sample_request" },
    );
    return `Sampling result: ${reply.content.type === "text" ? reply.content.text : "no text"}`;
  },
});

export const listRoots = defineTool({
  name: "test_input_required_result_list_roots",
  description: "MRTR: returns InputRequiredResult with roots/list request",
  handler: async (_args, ctx) => {
    const roots = await ctx.roots({ key: "roots_request" });
    return `Found ${roots.length} root(s)`;
  },
});

export const requestState = defineTool({
  name: "test_input_required_result_request_state",
  description: "MRTR: returns InputRequiredResult with requestState",
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(askConfirm, { key: "confirm" });
    return answer.action === "accept" && answer.content.ok
      ? "state-ok: requestState validated"
      : "not confirmed";
  },
});

export const multipleInputs = defineTool({
  name: "test_input_required_result_multiple_inputs",
  description: "MRTR: returns InputRequiredResult with multiple input requests",
  handler: async (_args, ctx) => {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit(askName, { key: "user_name" }),
      ctx.sample("Generate a greeting", { key: "greeting" }),
      ctx.roots({ key: "client_roots" }),
    ]);
    const who = name.action === "accept" ? name.content.name : "someone";
    const said = greeting.content.type === "text" ? greeting.content.text : "Hello there!";
    return `Name: ${who}; Greeting: ${said}; Roots: ${roots.length}`;
  },
});

export const multiRound = defineTool({
  name: "test_input_required_result_multi_round",
  description: "MRTR: multi-round InputRequiredResult workflow",
  handler: async (_args, ctx) => {
    const name = await ctx.elicit(
      { message: "Step 1: What is your name?", schema: { name: z.string() } },
      { key: "step1" },
    );
    const color = await ctx.elicit(
      { message: "Step 2: What is your favorite color?", schema: { color: z.string() } },
      { key: "step2" },
    );
    const who = name.action === "accept" ? name.content.name : "friend";
    const likes = color.action === "accept" ? color.content.color : "nothing";
    return `Multi-round complete for ${who} who likes ${likes}`;
  },
});

export const tamperedState = defineTool({
  name: "test_input_required_result_tampered_state",
  description: "MRTR: HMAC-signed requestState integrity test",
  handler: async (_args, ctx) => {
    await ctx.elicit(askConfirm, { key: "confirm" });
    return "integrity-ok: state verified";
  },
});

export const capabilities = defineTool({
  name: "test_input_required_result_capabilities",
  description: "MRTR: respects client capabilities in inputRequests",
  handler: async (_args, ctx) => {
    const { elicitation, sampling } = ctx.client.capabilities;
    const asks: Promise<unknown>[] = [];
    if (elicitation) {
      asks.push(
        ctx.elicit(
          { message: "Elicitation input", schema: { value: z.string() } },
          { key: "elicit_input" },
        ),
      );
    }
    if (sampling) asks.push(ctx.sample("Sample request", { key: "sample_input" }));
    if (asks.length === 0) return "No supported capabilities declared";
    await Promise.all(asks);
    return `capabilities-ok: received ${asks.length} answer(s)`;
  },
});
