import { defineTool } from "mcp-dir";

// Logs only reach a 2026-07-28 client that asked for a level in the request's _meta.
export default defineTool({
  name: "test_logging_tool",
  description: "Diagnostic logging validator tool",
  handler: (_args, ctx) => {
    ctx.log.info("Diagnostic trace logging activated");
    return "Logging evaluated";
  },
});
