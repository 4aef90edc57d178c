import { defineTool } from "mcp-dir";

// A response stream carries only what relates to its request: progress, then the result.
export default defineTool({
  name: "test_streaming_elicitation",
  description: "Diagnostic tool validating response progress streams",
  handler: async (_args, ctx) => {
    await ctx.progress(50, 100, "Halfway");
    return "Streaming complete";
  },
});
