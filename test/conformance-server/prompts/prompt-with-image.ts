import { definePrompt } from "mcp-dir";
import { PNG_BASE64 } from "../lib/media.js";

export default definePrompt({
  name: "test_prompt_with_image",
  title: "Prompt With Image",
  description: "A prompt that includes image content",
  get: () => [
    { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
    { role: "user", content: { type: "text", text: "Please analyze the image above." } },
  ],
});
