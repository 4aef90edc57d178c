import { defineTool } from "mcp-dir";

export default defineTool({
  name: "test_elicitation_sep1034_defaults",
  description: "Tests elicitation with default values for all primitive types (SEP-1034)",
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Please review and update the form fields with defaults",
      schema: {
        type: "object",
        properties: {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: {
            type: "string",
            description: "User status",
            enum: ["active", "inactive", "pending"],
            default: "active",
          },
          verified: { type: "boolean", description: "Verification status", default: true },
        },
        required: [],
      },
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  },
});
