import { defineResource } from "mcp-dir";
import { PNG_BASE64 } from "../lib/media.js";

export default defineResource({
  name: "static-binary",
  title: "Static Binary Resource",
  description: "A static binary resource (image) for testing",
  uri: "test://static-binary",
  mimeType: "image/png",
  read: () => Buffer.from(PNG_BASE64, "base64"),
});
