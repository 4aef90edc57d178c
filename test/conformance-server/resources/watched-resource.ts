import { defineResource } from "mcp-dir";

export default defineResource({
  name: "watched-resource",
  title: "Watched Resource",
  description: "A resource for subscription tests",
  uri: "test://watched-resource",
  mimeType: "text/plain",
  read: () => "Watched resource content",
});
