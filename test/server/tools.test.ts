import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ICON, TOOL_NAMES } from "./helpers/fixture.js";
import { closeSdkClients, connectSdkInMemory, type SdkConnection } from "./helpers/sdk-client.js";

const NO_INPUT = { type: "object", properties: {} };

describe("tools with the SDK client", () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    sdk = await connectSdkInMemory();
  });
  afterAll(closeSdkClients);

  it("lists every tool, sorted by name, in one page", async () => {
    const { tools, nextCursor } = await sdk.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(nextCursor).toBeUndefined();
  });

  it("describes a tool with title, icons, annotations and a zod-derived input schema", async () => {
    const { tools } = await sdk.client.listTools();
    expect(tools.find((t) => t.name === "echo")).toEqual({
      name: "echo",
      title: "Echo",
      description: "Echoes back the input",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string", description: "Message to echo" } },
        required: ["message"],
      },
      annotations: { readOnlyHint: true },
      icons: [ICON],
    });
    expect(tools.find((t) => t.name === "add")).toEqual({
      name: "add",
      title: "Add",
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      outputSchema: {
        type: "object",
        properties: { sum: { type: "number" } },
        required: ["sum"],
        additionalProperties: false,
      },
    });
    expect(tools.find((t) => t.name === "fail")).toEqual({
      name: "fail",
      description: "Always throws",
      inputSchema: NO_INPUT,
    });
  });

  it("turns a returned string into text content", async () => {
    expect(await sdk.client.callTool({ name: "echo", arguments: { message: "hi there" } })).toEqual(
      { content: [{ type: "text", text: "hi there" }] },
    );
  });

  it("returns structuredContent (and its JSON as text) for a tool with an output schema", async () => {
    expect(await sdk.client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: "text", text: '{"sum":5}' }],
      structuredContent: { sum: 5 },
    });
  });

  it("turns a thrown error into isError with its message", async () => {
    expect(await sdk.client.callTool({ name: "fail" })).toEqual({
      content: [{ type: "text", text: "the tool failed on purpose" }],
      isError: true,
    });
  });

  it("answers invalid arguments with isError naming the field", async () => {
    expect(await sdk.client.callTool({ name: "echo", arguments: { message: 42 } })).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "echo": message: Invalid input: expected string, received number',
        },
      ],
      isError: true,
    });
    expect(await sdk.client.callTool({ name: "echo", arguments: {} })).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "echo": message: Invalid input: expected string, received undefined',
        },
      ],
      isError: true,
    });
    expect(await sdk.client.callTool({ name: "add", arguments: { a: 1, b: "2" } })).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "add": b: Invalid input: expected number, received string',
        },
      ],
      isError: true,
    });
  });

  it("answers an unknown tool with -32602", async () => {
    const error = await sdk.client.callTool({ name: "nope" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Unknown tool: "nope"',
    });
  });

  it("returns content blocks as given: text and a resource_link", async () => {
    expect(await sdk.client.callTool({ name: "link" })).toEqual({
      content: [
        { type: "text", text: "see the memo" },
        {
          type: "resource_link",
          uri: "memo://static",
          name: "static",
          title: "Static memo",
          icons: [ICON],
        },
      ],
    });
  });

  it("turns returned audio bytes into base64 audio content with the sniffed mime type", async () => {
    expect(await sdk.client.callTool({ name: "beep" })).toEqual({
      content: [{ type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" }],
    });
  });

  it("carries a message of several megabytes both ways", async () => {
    const message = "x".repeat(3 * 1024 * 1024);
    expect(await sdk.client.callTool({ name: "echo", arguments: { message } })).toEqual({
      content: [{ type: "text", text: message }],
    });
  });

  it("serves concurrent calls independently", async () => {
    const results = await Promise.all(
      ["a", "b", "c", "d", "e"].map((message) =>
        sdk.client.callTool({ name: "echo", arguments: { message } }),
      ),
    );
    expect(results).toEqual(
      ["a", "b", "c", "d", "e"].map((text) => ({ content: [{ type: "text", text }] })),
    );
  });
});
