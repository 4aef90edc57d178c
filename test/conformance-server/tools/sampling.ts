import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  name: "test_sampling",
  description: "Tests server-initiated sampling (LLM completion request)",
  input: { prompt: z.string().describe("The prompt to send to the LLM") },
  handler: async ({ prompt }, ctx) => {
    const result = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: prompt } }],
      maxTokens: 100,
    });
    const text = result.content.type === "text" ? result.content.text : "(no text)";
    return `LLM response: ${text}`;
  },
});
