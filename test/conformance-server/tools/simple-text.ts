import { defineTool } from "mcp-dir";

export default defineTool({
  name: "test_simple_text",
  description: "Tests simple text content response",
  handler: () => "This is a simple text response for testing.",
});
