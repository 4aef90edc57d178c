import { defineTool } from "mcp-dir";
import { sleep } from "../lib/media.js";

export default defineTool({
  name: "test_tool_with_progress",
  description: "Tests tool that reports progress notifications",
  handler: async (_args, ctx) => {
    await ctx.progress(0, 100, "Completed step 0 of 100");
    await sleep(50);
    await ctx.progress(50, 100, "Completed step 50 of 100");
    await sleep(50);
    await ctx.progress(100, 100, "Completed step 100 of 100");
    return `Progress reported for request ${ctx.requestId}`;
  },
});
