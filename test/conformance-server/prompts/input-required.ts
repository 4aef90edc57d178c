import { definePrompt } from "mcp-dir";
import { z } from "zod";

export default definePrompt({
  name: "test_input_required_result_prompt",
  description: "MRTR: prompt that requires elicitation input",
  get: async (_args, ctx) => {
    const answer = await ctx.elicit(
      { message: "What context should the prompt use?", schema: { context: z.string() } },
      { key: "user_context" },
    );
    const context = answer.action === "accept" ? answer.content.context : "none";
    return `Prompt with context: ${context}`;
  },
});
