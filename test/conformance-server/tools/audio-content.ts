import { defineTool } from "mcp-dir";
import { WAV_BASE64 } from "../lib/media.js";

export default defineTool({
  name: "test_audio_content",
  description: "Tests audio content response",
  handler: () => ({ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }),
});
