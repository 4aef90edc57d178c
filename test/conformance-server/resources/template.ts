import { defineResource } from "mcp-dir";

export default defineResource({
  name: "template",
  title: "Resource Template",
  description: "A resource template with parameter substitution",
  uriTemplate: "test://template/{id}/data",
  mimeType: "application/json",
  read: ({ params }) => ({ id: params.id, templateTest: true, data: `Data for ID: ${params.id}` }),
});
