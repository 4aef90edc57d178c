import { defineTool } from "mcp-dir";
import { PNG_BASE64 } from "../lib/media.js";

export default defineTool({
  name: "test_multiple_content_types",
  description: "Tests response with multiple content types (text, image, resource)",
  handler: () => [
    { type: "text", text: "Multiple content types test:" },
    { type: "image", data: PNG_BASE64, mimeType: "image/png" },
    {
      type: "resource",
      resource: {
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: JSON.stringify({ test: "data", value: 123 }),
      },
    },
  ],
});
