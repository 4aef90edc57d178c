import { definePrompt } from "mcp-dir";

export default definePrompt({
  name: "test_prompt_with_embedded_resource",
  title: "Prompt With Embedded Resource",
  description: "A prompt that includes an embedded resource",
  arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
  get: ({ resourceUri }) => [
    {
      role: "user",
      content: {
        type: "resource",
        resource: {
          uri: resourceUri,
          mimeType: "text/plain",
          text: "Embedded resource content for testing.",
        },
      },
    },
    {
      role: "user",
      content: { type: "text", text: "Please process the embedded resource above." },
    },
  ],
});
