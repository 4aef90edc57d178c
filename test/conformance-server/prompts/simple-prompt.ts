import { definePrompt } from "mcp-dir";

export default definePrompt({
  name: "test_simple_prompt",
  title: "Simple Test Prompt",
  description: "A simple prompt without arguments",
  messages: [{ role: "user", content: "This is a simple prompt for testing." }],
});
