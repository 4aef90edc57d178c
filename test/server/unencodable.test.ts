import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliConnection, connectToServe, stopAll } from "../cli/helpers/cli.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";

const FILES = {
  "tools/ok.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Still answers", handler: () => "ok" });`,
  "tools/bigint.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "A BigInt in _meta",
  handler: () => ({ content: [{ type: "text", text: "x" }], _meta: { n: 1n } }),
});`,
  "tools/circular.ts": `import { defineTool } from "mcp-dir";
const meta: Record<string, unknown> = {};
meta.self = meta;
export default defineTool({
  description: "A cycle in _meta",
  handler: () => ({ content: [{ type: "text", text: "x" }], _meta: meta }),
});`,
  "tools/to-json.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "A block whose toJSON throws",
  handler: () => [{ type: "text", text: "x", toJSON() { throw new Error("no JSON for you"); } }],
});`,
  "tools/log-bigint.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Logs a BigInt",
  handler: (_args, ctx) => { ctx.log.info({ n: 1n }); return "logged"; },
});`,
  "prompts/bigint.ts": `import { definePrompt } from "mcp-dir";
export default definePrompt({
  description: "A BigInt in the result",
  get: () => ({ messages: [{ role: "user", content: "hi" }], _meta: { n: 2n } }),
});`,
  "resources/circular.ts": `import { defineResource } from "mcp-dir";
const meta: Record<string, unknown> = {};
meta.self = meta;
export default defineResource({
  uri: "memo://circular",
  read: ({ uri }) => ({ contents: [{ uri, text: "x", _meta: meta }] }),
});`,
};

describe("a result that cannot be encoded as JSON", () => {
  let connection: CliConnection;
  beforeAll(async () => {
    connection = await connectToServe(await createServerDir(FILES));
  });
  afterAll(async () => {
    await stopAll();
    await removeServerDirs();
  });

  const refused = async (run: () => Promise<unknown>) => {
    const error = await run().then(
      () => undefined,
      (thrown: unknown) => thrown as { code: number; message: string },
    );
    return { code: error?.code, message: error?.message };
  };

  it.each([
    ["bigint", "Do not know how to serialize a BigInt"],
    ["circular", "Converting circular structure to JSON"],
    ["to-json", "no JSON for you"],
  ])(
    "answers tools/call of %s with an error that says why, and the server lives on",
    async (name, why) => {
      const { code, message } = await refused(() =>
        connection.client.callTool({ name, arguments: {} }),
      );
      expect(code).toBe(-32603);
      expect(message).toContain(
        `MCP error -32603: tools/call of "${name}" returned a result that cannot be sent as JSON: ${why}`,
      );
      expect(await connection.client.callTool({ name: "ok", arguments: {} })).toEqual({
        content: [{ type: "text", text: "ok" }],
      });
    },
  );

  it("answers prompts/get and resources/read the same way", async () => {
    expect(await refused(() => connection.client.getPrompt({ name: "bigint" }))).toEqual({
      code: -32603,
      message:
        'MCP error -32603: prompts/get of "bigint" returned a result that cannot be sent as JSON: Do not know how to serialize a BigInt; return plain JSON values (no BigInt, no cycles)',
    });
    const read = await refused(() => connection.client.readResource({ uri: "memo://circular" }));
    expect(read.code).toBe(-32603);
    expect(read.message).toMatch(
      /^MCP error -32603: resources\/read of "memo:\/\/circular" returned a result that cannot be sent as JSON: Converting circular structure to JSON/,
    );
  });

  it("drops a log message it cannot encode, says so on stderr, and answers the call", async () => {
    expect(await connection.client.callTool({ name: "log-bigint", arguments: {} })).toEqual({
      content: [{ type: "text", text: "logged" }],
    });
    await connection.waitForStderr(
      "mcp-dir: a notifications/message could not be sent as JSON and was dropped: Do not know how to serialize a BigInt",
    );
  });
});
