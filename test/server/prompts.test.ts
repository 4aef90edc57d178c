import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ICON } from "./helpers/fixture.js";
import { closeSdkClients, connectSdkInMemory, type SdkConnection } from "./helpers/sdk-client.js";

const USERS = Array.from({ length: 150 }, (_, i) => `user${String(i).padStart(3, "0")}`);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe("prompts with the SDK client", () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    sdk = await connectSdkInMemory();
  });
  afterAll(closeSdkClients);

  it("lists prompts sorted by name, with titles, icons and arguments", async () => {
    // The SDK's PromptArgumentSchema strips an argument's "title"; versions.test.ts checks
    // on the wire that the server sends it (2025-06-18 and newer).
    expect(await sdk.client.listPrompts()).toEqual({
      prompts: [
        {
          name: "code_review",
          description: "Reviews code",
          arguments: [
            { name: "code", description: "The code to review", required: true },
            { name: "language" },
          ],
        },
        {
          name: "greet",
          title: "Greeting",
          description: "Greets someone",
          arguments: [
            { name: "name", description: "Who to greet", required: true },
            { name: "style", description: "How to greet" },
          ],
          icons: [ICON],
        },
        { name: "linked", description: "A prompt whose messages hold newer content types" },
      ],
    });
  });

  it("fills {{placeholders}} of static messages", async () => {
    expect(
      await sdk.client.getPrompt({ name: "greet", arguments: { name: "Ada", style: "formal" } }),
    ).toEqual({
      description: "Greets someone",
      messages: [
        { role: "user", content: { type: "text", text: "Say hello to Ada in a formal way." } },
      ],
    });
    expect(await sdk.client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).toEqual({
      description: "Greets someone",
      messages: [{ role: "user", content: { type: "text", text: "Say hello to Ada in a  way." } }],
    });
  });

  it("runs get() with zod-validated arguments and normalises its messages", async () => {
    expect(
      await sdk.client.getPrompt({
        name: "code_review",
        arguments: { code: "let x = 1", language: "js" },
      }),
    ).toEqual({
      description: "Reviews code",
      messages: [
        { role: "user", content: { type: "text", text: "Review this js code:\nlet x = 1" } },
        { role: "assistant", content: { type: "text", text: "I will review it." } },
      ],
    });
  });

  it("returns every content type to a 2025-11-25 client", async () => {
    expect(await sdk.client.getPrompt({ name: "linked" })).toEqual({
      description: "A prompt whose messages hold newer content types",
      messages: [
        { role: "user", content: { type: "text", text: "plain text" } },
        {
          role: "user",
          content: {
            type: "resource_link",
            uri: "memo://static",
            name: "static",
            title: "Static memo",
            icons: [ICON],
          },
        },
        { role: "user", content: { type: "audio", data: "UklGRg==", mimeType: "audio/wav" } },
      ],
    });
  });

  it("refuses a missing required argument and an unknown prompt with -32602", async () => {
    expect(
      await rejection(sdk.client.getPrompt({ name: "greet", arguments: { style: "x" } })),
    ).toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Missing required argument for prompt "greet": name',
    });
    expect(await rejection(sdk.client.getPrompt({ name: "code_review" }))).toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Missing required argument for prompt "code_review": code',
    });
    const unknown = await rejection(sdk.client.getPrompt({ name: "nope" }));
    expect(unknown).toBeInstanceOf(McpError);
    expect(unknown).toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Unknown prompt: "nope"',
    });
  });
});

describe("completion of prompt arguments", () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    sdk = await connectSdkInMemory();
  });
  afterAll(closeSdkClients);

  const complete = (argument: string, value: string) =>
    sdk.client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: argument, value },
    });

  it("filters a fixed list by prefix", async () => {
    expect(await complete("style", "f")).toEqual({
      completion: { values: ["formal", "friendly"], total: 2, hasMore: false },
    });
    expect(await complete("style", "F")).toEqual({
      completion: { values: ["formal", "friendly"], total: 2, hasMore: false },
    });
    expect(await complete("style", "")).toEqual({
      completion: { values: ["formal", "friendly", "casual"], total: 3, hasMore: false },
    });
    expect(await complete("style", "x")).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
  });

  it("returns at most 100 values, with the total and hasMore", async () => {
    expect(await complete("name", "")).toEqual({
      completion: { values: USERS.slice(0, 100), total: 150, hasMore: true },
    });
    expect(await complete("name", "user1")).toEqual({
      completion: { values: USERS.slice(100, 150), total: 50, hasMore: false },
    });
    expect(await complete("name", "user14")).toEqual({
      completion: { values: USERS.slice(140, 150), total: 10, hasMore: false },
    });
  });

  it("answers an argument without a completer with no values", async () => {
    const result = await sdk.client.complete({
      ref: { type: "ref/prompt", name: "code_review" },
      argument: { name: "code", value: "x" },
    });
    expect(result).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it("refuses an unknown prompt with -32602", async () => {
    const error = await rejection(
      sdk.client.complete({
        ref: { type: "ref/prompt", name: "nope" },
        argument: { name: "x", value: "" },
      }),
    );
    expect(error).toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Unknown prompt: "nope"',
    });
  });
});
