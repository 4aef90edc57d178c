import { defineTool } from "mcp-dir";
import { sleep } from "../lib/media.js";

export default defineTool({
  name: "test_tool_with_logging",
  description: "Tests tool that emits log messages during execution",
  handler: async (_args, ctx) => {
    ctx.log.info("Tool execution started");
    await sleep(50);
    ctx.log.info("Tool processing data");
    await sleep(50);
    ctx.log.info("Tool execution completed");
    return "Tool with logging executed successfully";
  },
});
