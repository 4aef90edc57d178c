import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToDirectory } from "../helpers/directory-client.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { closeSdkClients, type SdkConnection } from "../server/helpers/sdk-client.js";

const FILES = {
  "tools/object-text.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "A text block whose text is an object",
  handler: () => ({ content: [{ type: "text", text: { not: "a string" } }] }),
});`,
  "tools/image-without-type.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "An image block without a mime type",
  handler: () => [{ type: "text", text: "fine" }, { type: "image", data: "AAAA" }],
});`,
  "prompts/object-text.ts": `import { definePrompt } from "mcp-dir";
export default definePrompt({
  description: "A message whose text is a number",
  get: () => [{ role: "user", content: { type: "text", text: 42 } }],
});`,
  "resources/nothing.ts": `import { defineResource } from "mcp-dir";
export default defineResource({ uri: "memo://nothing", read: () => undefined });`,
};

describe("content that breaks the protocol's shapes never leaves the server", () => {
  let connection: SdkConnection;
  beforeAll(async () => {
    connection = await connectToDirectory(await createServerDir(FILES));
  });
  afterAll(async () => {
    await closeSdkClients();
    await removeServerDirs();
  });

  it("turns a tool's invalid content into its error, naming the tool and the field", async () => {
    expect(await connection.client.callTool({ name: "object-text", arguments: {} })).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "object-text" returned invalid content: content[0].text must be a string, got an object',
        },
      ],
      isError: true,
    });
    expect(await connection.client.callTool({ name: "image-without-type", arguments: {} })).toEqual(
      {
        content: [
          {
            type: "text",
            text: 'Tool "image-without-type" returned invalid content: content[1].mimeType must be a string, got nothing',
          },
        ],
        isError: true,
      },
    );
  });

  it("answers a prompt's invalid message and a resource that read nothing with -32603", async () => {
    const error = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (thrown: { code: number; message: string }) => [thrown.code, thrown.message],
      );
    expect(await error(connection.client.getPrompt({ name: "object-text" }))).toEqual([
      -32603,
      'MCP error -32603: Prompt "object-text" returned invalid content: message content.text must be a string, got a number',
    ]);
    expect(await error(connection.client.readResource({ uri: "memo://nothing" }))).toEqual([
      -32603,
      'MCP error -32603: Resource "memo://nothing" read returned nothing; return a string, bytes, { text } or { blob } items, or { contents }',
    ]);
  });
});
