import { defineTool } from "mcp-dir";

export default defineTool({
  name: "test_embedded_resource",
  description: "Tests embedded resource content response",
  handler: () => ({
    type: "resource",
    resource: {
      uri: "test://embedded-resource",
      mimeType: "text/plain",
      text: "This is an embedded resource content.",
    },
  }),
});
