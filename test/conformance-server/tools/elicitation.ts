import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  name: "test_elicitation",
  description: "Tests server-initiated elicitation (user input request)",
  input: { message: z.string().describe("The message to show the user") },
  handler: async ({ message }, ctx) => {
    const answer = await ctx.elicit({
      message,
      schema: {
        username: z.string().describe("User's response"),
        email: z.string().describe("User's email address"),
      },
    });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  },
});
