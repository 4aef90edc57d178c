import { defineTool } from "mcp-dir";

export default defineTool({
  name: "json_schema_2020_12_tool",
  description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
  // Written as JSON Schema rather than zod: the suite checks it is listed verbatim.
  input: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: {
      address: {
        $anchor: "addressDef",
        type: "object",
        properties: { street: { type: "string" }, city: { type: "string" } },
      },
    },
    properties: {
      name: { type: "string" },
      address: { $ref: "#/$defs/address" },
      contactMethod: { type: "string", enum: ["phone", "email"] },
      phone: { type: "string" },
      email: { type: "string" },
    },
    allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
    if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
    // biome-ignore lint/suspicious/noThenProperty: "then" is a JSON Schema keyword here, not a promise.
    then: { required: ["phone"] },
    else: { required: ["email"] },
    additionalProperties: false,
  },
  handler: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
});
