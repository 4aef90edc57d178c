import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { type CliConnection, connectToServe, stopAll } from "./helpers/cli.js";

const FILES = {
  "tools/add.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Adds two numbers",
  input: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number", minimum: 0 } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  handler: ({ a, b }: { a: number; b: number }) => String(a + b),
});`,
  "tools/count.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Counts badly",
  output: { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
  handler: () => ({ count: "three" }),
});`,
};

describe("hand-written JSON Schemas, through the real CLI and the SDK client", () => {
  let connection: CliConnection;
  beforeAll(async () => {
    connection = await connectToServe(await createServerDir(FILES));
  });
  afterAll(async () => {
    await stopAll();
    await removeServerDirs();
  });

  it("validates arguments before the handler runs, naming each field", async () => {
    const call = (args: Record<string, unknown>) =>
      connection.client.callTool({ name: "add", arguments: args });
    expect(await call({ a: "1", b: 2 })).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "add": a: Instance type "string" is invalid. Expected "number"',
        },
      ],
      isError: true,
    });
    expect(await call({ a: 1, b: -5, zzz: true })).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "add": b: -5 is less than 0; zzz: is not allowed here',
        },
      ],
      isError: true,
    });
    expect(await call({ a: 1, b: 2 })).toEqual({ content: [{ type: "text", text: "3" }] });
  });

  it("answers a structured result that breaks the output schema with isError, not invalid content", async () => {
    const result = await connection.client.callTool({ name: "count", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });
});
