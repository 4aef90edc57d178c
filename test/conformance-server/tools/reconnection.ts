import { defineTool } from "mcp-dir";
import { sleep } from "../lib/media.js";

export default defineTool({
  name: "test_reconnection",
  description:
    "Tests SSE stream reconnection: streams a log message, then answers on the same stream",
  handler: async (_args, ctx) => {
    // A related message makes the HTTP transport answer with an SSE stream (priming event,
    // retry field) instead of plain JSON, which is what the SSE polling scenario inspects.
    ctx.log.info("Reconnection test started");
    await sleep(100);
    return "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.";
  },
});
