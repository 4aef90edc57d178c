/**
 * A client that answers the server's sampling, elicitation or roots request with a
 * JSON-RPC error: the handler that asked gets an error naming the method and the
 * client's code, and what it lets through is its own failure (-32603 for a prompt or
 * a resource, an isError result for a tool), never the client's code passed on as if
 * the server meant it ("Invalid params" for a request whose params were fine).
 */
import { CreateMessageRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToDirectory } from "../helpers/directory-client.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { closeSdkClients, type SdkConnection } from "./helpers/sdk-client.js";

const ASK = `const ask = (ctx) =>
  ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
`;

const FILES = {
  "prompts/summary.js": `import { definePrompt } from "mcp-dir";
${ASK}
export default definePrompt({
  description: "Asks the client's model",
  get: async (_args, ctx) => {
    await ask(ctx);
    return "unreachable";
  },
});
`,
  "tools/summarize.js": `import { defineTool } from "mcp-dir";
${ASK}
export default defineTool({
  description: "Asks the client's model",
  handler: async (_args, ctx) => {
    await ask(ctx);
    return "unreachable";
  },
});
`,
  "tools/caught.js": `import { defineTool } from "mcp-dir";
${ASK}
export default defineTool({
  description: "Reads what the client answered",
  handler: async (_args, ctx) => {
    try {
      await ask(ctx);
      return "unreachable";
    } catch (error) {
      return JSON.stringify({ name: error.name, code: error.code, message: error.message });
    }
  },
});
`,
};

const CLIENT_SAYS = "the user turned sampling off";
const WHAT_IT_MEANS = `the client answered sampling/createMessage with error -32602: ${CLIENT_SAYS}`;

let connection: SdkConnection;

beforeAll(async () => {
  const dir = await createServerDir(FILES);
  connection = await connectToDirectory(dir, {
    capabilities: { sampling: {} },
    setup: (client) => {
      client.setRequestHandler(CreateMessageRequestSchema, () => {
        throw new McpError(-32602, CLIENT_SAYS);
      });
    },
  });
});

afterAll(async () => {
  await closeSdkClients();
  await removeServerDirs();
});

describe("a client's error answer to a request the server sent", () => {
  it("fails a prompt that lets it through with -32603 naming it, not the client's code", async () => {
    await expect(connection.client.getPrompt({ name: "summary" })).rejects.toMatchObject({
      code: -32603,
      message: `MCP error -32603: Internal error in prompts/get: ${WHAT_IT_MEANS}`,
    });
  });

  it("is a tool's isError result naming it", async () => {
    expect(await connection.client.callTool({ name: "summarize" })).toEqual({
      content: [{ type: "text", text: WHAT_IT_MEANS }],
      isError: true,
    });
  });

  it("keeps the client's code for a handler that looks", async () => {
    const result = await connection.client.callTool({ name: "caught" });
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "")).toEqual({
      name: "ClientErrorAnswer",
      code: -32602,
      message: WHAT_IT_MEANS,
    });
  });
});
