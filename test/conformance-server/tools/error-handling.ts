import { defineTool } from "mcp-dir";

export default defineTool({
  name: "test_error_handling",
  description: "Tests error response handling",
  handler: () => {
    throw new Error("This tool intentionally returns an error for testing");
  },
});
