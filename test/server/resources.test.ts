import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ICON } from "./helpers/fixture.js";
import { closeSdkClients, connectSdkInMemory, type SdkConnection } from "./helpers/sdk-client.js";

const IDS = Array.from({ length: 250 }, (_, i) => `u${String(i).padStart(3, "0")}`);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe("resources with the SDK client", () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    sdk = await connectSdkInMemory();
  });
  afterAll(closeSdkClients);

  it("lists fixed resources sorted by name, from every registry source", async () => {
    expect(await sdk.client.listResources()).toEqual({
      resources: [
        { uri: "memo://dynamic-a", name: "dynamic-a", mimeType: "text/plain" },
        { uri: "memo://dynamic-b", name: "dynamic-b", mimeType: "text/plain" },
        {
          uri: "memo://static",
          name: "static",
          title: "Static memo",
          description: "A fixed text",
          mimeType: "text/plain",
          icons: [ICON],
        },
      ],
    });
  });

  it("lists URI templates sorted by name", async () => {
    expect(await sdk.client.listResourceTemplates()).toEqual({
      resourceTemplates: [
        { uriTemplate: "repos://{owner}/{repo}", name: "repo" },
        {
          uriTemplate: "users://{id}/profile",
          name: "user-profile",
          title: "User profile",
          mimeType: "application/json",
        },
      ],
    });
  });

  it("reads a fixed resource", async () => {
    expect(await sdk.client.readResource({ uri: "memo://static" })).toEqual({
      contents: [{ uri: "memo://static", mimeType: "text/plain", text: "static memo" }],
    });
    expect(await sdk.client.readResource({ uri: "memo://dynamic-b" })).toEqual({
      contents: [{ uri: "memo://dynamic-b", mimeType: "text/plain", text: "dynamic b version 1" }],
    });
  });

  it("reads through a template, with the variables it matched", async () => {
    expect(await sdk.client.readResource({ uri: "users://u042/profile" })).toEqual({
      contents: [
        { uri: "users://u042/profile", mimeType: "application/json", text: '{"id":"u042"}' },
      ],
    });
    expect(await sdk.client.readResource({ uri: "repos://acme/anvil" })).toEqual({
      contents: [{ uri: "repos://acme/anvil", mimeType: "text/plain", text: "acme/anvil" }],
    });
  });

  it("answers an unknown URI with -32002 and the uri as data", async () => {
    expect(await rejection(sdk.client.readResource({ uri: "memo://nope" }))).toMatchObject({
      code: -32002,
      message: "MCP error -32002: Resource not found: memo://nope",
      data: { uri: "memo://nope" },
    });
  });
});

describe("completion of URI template variables", () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    sdk = await connectSdkInMemory();
  });
  afterAll(closeSdkClients);

  const complete = (uri: string, name: string, value: string, context?: Record<string, string>) =>
    sdk.client.complete({
      ref: { type: "ref/resource", uri },
      argument: { name, value },
      ...(context && { context: { arguments: context } }),
    });

  it("returns at most 100 values, with the total and hasMore", async () => {
    expect(await complete("users://{id}/profile", "id", "")).toEqual({
      completion: { values: IDS.slice(0, 100), total: 250, hasMore: true },
    });
    expect(await complete("users://{id}/profile", "id", "u1")).toEqual({
      completion: { values: IDS.slice(100, 200), total: 100, hasMore: false },
    });
    expect(await complete("users://{id}/profile", "id", "u12")).toEqual({
      completion: { values: IDS.slice(120, 130), total: 10, hasMore: false },
    });
  });

  it("passes the values already chosen (context.arguments) to the completer", async () => {
    expect(await complete("repos://{owner}/{repo}", "repo", "a", { owner: "acme" })).toEqual({
      completion: { values: ["anvil", "apparatus"], total: 2, hasMore: false },
    });
    expect(await complete("repos://{owner}/{repo}", "repo", "", { owner: "acme" })).toEqual({
      completion: { values: ["anvil", "apparatus", "rocket"], total: 3, hasMore: false },
    });
    expect(await complete("repos://{owner}/{repo}", "repo", "")).toEqual({
      completion: { values: ["other"], total: 1, hasMore: false },
    });
  });

  it("answers a variable without a completer with no values", async () => {
    expect(await complete("repos://{owner}/{repo}", "owner", "a")).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
  });

  it("refuses an unknown template with -32602", async () => {
    expect(await rejection(complete("nope://{x}", "x", ""))).toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Unknown resource or resource template: "nope://{x}"',
    });
  });
});
