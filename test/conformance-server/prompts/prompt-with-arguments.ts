import { definePrompt } from "mcp-dir";

export default definePrompt({
  name: "test_prompt_with_arguments",
  title: "Prompt With Arguments",
  description: "A prompt with required arguments",
  arguments: [
    { name: "arg1", description: "First test argument", required: true },
    { name: "arg2", description: "Second test argument", required: true },
  ],
  messages: [{ role: "user", content: "Prompt with arguments: arg1='{{arg1}}', arg2='{{arg2}}'" }],
});
