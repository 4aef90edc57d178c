import { defineResource } from "mcp-dir";

export default defineResource({
  name: "static-text",
  title: "Static Text Resource",
  description: "A static text resource for testing",
  uri: "test://static-text",
  mimeType: "text/plain",
  read: () => "This is the content of the static text resource.",
});
