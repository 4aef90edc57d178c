import { defineTool } from "mcp-dir";

// Needs the client's model: on 2026-07-28 a client that did not declare
// "sampling" gets -32021 (the handler lets ctx.sample's error through).
export default defineTool({
  name: "test_missing_capability",
  description: "Test tool requiring sampling",
  handler: async (_args, ctx) => {
    await ctx.sample("Say OK");
    return "Success";
  },
});
