import { describe, expect, it } from "vitest";
import { mirroredParamProblems, mirroredParams } from "../../src/protocol/mcp-param.js";

describe("x-mcp-header marks on a tool's input schema", () => {
  it("finds the marked properties through nested properties, with their paths", () => {
    const schema = {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        target: {
          type: "object",
          properties: { id: { type: "integer", "x-mcp-header": "Target-Id" } },
        },
      },
    };
    expect(mirroredParams(schema)).toEqual([
      { header: "Region", path: ["region"] },
      { header: "Target-Id", path: ["target", "id"] },
    ]);
    expect(mirroredParamProblems(schema)).toEqual([]);
  });

  it("names each mark the revision forbids", () => {
    const schema = {
      type: "object",
      properties: {
        a: { type: "string", "x-mcp-header": "Bad Name" },
        b: { type: "string", "x-mcp-header": "Dup" },
        c: { type: "boolean", "x-mcp-header": "dup" },
        d: { type: "number", "x-mcp-header": "Ratio" },
        list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
      },
    };
    expect(mirroredParamProblems(schema)).toEqual([
      '"x-mcp-header" at /properties/list/items is not reached through "properties" alone; mark only properties of the input object (or of objects nested in it through "properties")',
      `input property "a": "x-mcp-header" "Bad Name" is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only)`,
      'input property "c": "x-mcp-header" "dup" is already used by "b" (names are compared without case)',
      'input property "d": "x-mcp-header" needs a string, integer or boolean property, not "number"',
    ]);
  });
});
