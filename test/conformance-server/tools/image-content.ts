import { defineTool } from "mcp-dir";
import { PNG_BASE64 } from "../lib/media.js";

export default defineTool({
  name: "test_image_content",
  description: "Tests image content response",
  handler: () => ({ type: "image", data: PNG_BASE64, mimeType: "image/png" }),
});
