import { PassThrough } from "node:stream";
import type { Notification } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  createServer,
  defineResource,
  defineTool,
  type McpServer,
  serveStdio,
} from "../../src/index.js";
import { TOOL_NAMES } from "./helpers/fixture.js";
import { Inbox } from "./helpers/inbox.js";
import {
  closeSdkClients,
  connectSdkInMemory,
  connectSdkTo,
  type SdkConnection,
} from "./helpers/sdk-client.js";

/**
 * Every notification the client receives, in order. A ping is the barrier that
 * proves something was NOT sent: the server sends its change notifications in one
 * go, so once the client has seen one of them and then a ping answered, all of them
 * have arrived.
 */
async function connect(): Promise<{ sdk: SdkConnection; inbox: Inbox<Notification> }> {
  const inbox = new Inbox<Notification>();
  const sdk = await connectSdkInMemory({
    setup: (client) => {
      client.fallbackNotificationHandler = async ({ method, params }) =>
        inbox.push({ method, params });
    },
  });
  return { sdk, inbox };
}

const updated = (uri: string) => ({
  method: "notifications/resources/updated",
  params: { uri },
});

function waitForMethod(inbox: Inbox<Notification>, method: string, uri?: string) {
  return inbox.waitFor(
    (n) => n.method === method && (uri === undefined || n.params?.uri === uri),
    uri ? `${method} for ${uri}` : method,
  );
}

describe("resource subscriptions", () => {
  afterEach(closeSdkClients);

  it("sends resources/updated to a subscriber when the resource's source is replaced", async () => {
    const { sdk, inbox } = await connect();
    expect(await sdk.client.subscribeResource({ uri: "memo://dynamic-a" })).toEqual({});
    expect(await sdk.client.callTool({ name: "touch", arguments: { ids: ["a"] } })).toEqual({
      content: [{ type: "text", text: "touched a" }],
    });
    await waitForMethod(inbox, "notifications/resources/updated", "memo://dynamic-a");
    await sdk.client.ping();
    // Only its content changed, not the list: no resources/list_changed.
    expect(inbox.items).toEqual([updated("memo://dynamic-a")]);
    expect(await sdk.client.readResource({ uri: "memo://dynamic-a" })).toEqual({
      contents: [{ uri: "memo://dynamic-a", mimeType: "text/plain", text: "dynamic a version 2" }],
    });
  });

  it("stops sending resources/updated after unsubscribe", async () => {
    const { sdk, inbox } = await connect();
    await sdk.client.subscribeResource({ uri: "memo://dynamic-a" });
    await sdk.client.subscribeResource({ uri: "memo://dynamic-b" });
    await sdk.client.callTool({ name: "touch", arguments: { ids: ["a", "b"] } });
    await waitForMethod(inbox, "notifications/resources/updated", "memo://dynamic-b");
    await sdk.client.ping();
    expect(inbox.items).toEqual([updated("memo://dynamic-a"), updated("memo://dynamic-b")]);

    expect(await sdk.client.unsubscribeResource({ uri: "memo://dynamic-a" })).toEqual({});
    // a is touched before b, so its update would come first.
    await sdk.client.callTool({ name: "touch", arguments: { ids: ["a", "b"] } });
    await inbox.waitForCount(
      (n) => n.method === "notifications/resources/updated" && n.params?.uri === "memo://dynamic-b",
      2,
      "a second update of memo://dynamic-b",
    );
    await sdk.client.ping();
    expect(inbox.items).toEqual([
      updated("memo://dynamic-a"),
      updated("memo://dynamic-b"),
      updated("memo://dynamic-b"),
    ]);
  });

  it("sends nothing for a change no one subscribed to that leaves the lists as they were", async () => {
    const { sdk, inbox } = await connect();
    await sdk.client.callTool({ name: "touch", arguments: { ids: ["a", "b"] } });
    // Something that is surely sent after the touch's notifications would have been.
    await sdk.client.subscribeResource({ uri: "memo://dynamic-b" });
    await sdk.client.callTool({ name: "touch", arguments: { ids: ["b"] } });
    await waitForMethod(inbox, "notifications/resources/updated", "memo://dynamic-b");
    await sdk.client.ping();
    expect(inbox.items).toEqual([updated("memo://dynamic-b")]);
  });

  it("tells subscribers of a removed resource, and the list changes", async () => {
    const { sdk, inbox } = await connect();
    await sdk.client.subscribeResource({ uri: "memo://dynamic-b" });
    expect(await sdk.client.callTool({ name: "remove", arguments: { id: "b" } })).toEqual({
      content: [{ type: "text", text: "removed b" }],
    });
    await waitForMethod(inbox, "notifications/resources/updated", "memo://dynamic-b");
    await sdk.client.ping();
    expect(inbox.items).toEqual([
      { method: "notifications/resources/list_changed", params: {} },
      updated("memo://dynamic-b"),
    ]);
    const { resources } = await sdk.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["memo://dynamic-a", "memo://static"]);
    const error = await sdk.client.readResource({ uri: "memo://dynamic-b" }).catch((e) => e);
    expect(error).toMatchObject({
      code: -32002,
      message: "MCP error -32002: Resource not found: memo://dynamic-b",
    });
  });

  it("does not tell subscribers of unrelated resources that they changed when server.add() adds a tool", async () => {
    const { sdk, inbox } = await connect();
    await sdk.client.subscribeResource({ uri: "memo://static" });
    await sdk.client.callTool({
      name: "add_definition",
      arguments: { kind: "tool", name: "runtime_tool" },
    });
    await waitForMethod(inbox, "notifications/tools/list_changed");
    await sdk.client.ping();
    expect(inbox.items).toEqual([{ method: "notifications/tools/list_changed", params: {} }]);
  });
});

describe("a template's source replaced", () => {
  afterEach(closeSdkClients);

  const users = (greeting: string) =>
    new Map([
      [
        "resources/users.ts",
        [
          {
            definition: defineResource({
              uriTemplate: "users://{id}",
              read: ({ params }) => `${greeting} ${params.id}`,
            }),
            fallbackName: "users",
          },
        ],
      ],
    ]);

  it("tells the subscribers of every URI it serves, a 2025 session and a 2026 listen stream alike", async () => {
    const server = createServer({ name: "templates", version: "1.0.0" });
    server.registry.update(users("Hello"));
    const inbox = new Inbox<Notification>();
    const sdk = await connectSdkTo(server, {
      setup: (client) => {
        client.fallbackNotificationHandler = async ({ method, params }) =>
          inbox.push({ method, params });
      },
    });
    await sdk.client.subscribeResource({ uri: "users://ann" });
    await sdk.client.subscribeResource({ uri: "memo://other" });
    const heard = new Inbox<{ method: string; params: Record<string, unknown> }>();
    const listening = new AbortController();
    const listen = server.serveRequest(
      {
        jsonrpc: "2.0",
        id: "L",
        method: "subscriptions/listen",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
          notifications: { resourceSubscriptions: ["users://bob", "memo://other"] },
        },
      },
      {
        notify: ({ method, params }) =>
          heard.push({ method, params: params as Record<string, unknown> }),
        signal: listening.signal,
      },
    );
    await heard.waitFor((n) => n.method === "notifications/subscriptions/acknowledged", "the ack");

    server.registry.update(users("Hi"));

    await waitForMethod(inbox, "notifications/resources/updated", "users://ann");
    await sdk.client.ping();
    expect(inbox.items).toEqual([updated("users://ann")]);
    const told = await heard.waitFor(
      (n) => n.method === "notifications/resources/updated",
      "resources/updated on the listen stream",
    );
    expect(told.params).toEqual({
      _meta: { "io.modelcontextprotocol/subscriptionId": "L" },
      uri: "users://bob",
    });
    expect(await sdk.client.readResource({ uri: "users://ann" })).toMatchObject({
      contents: [{ text: "Hi ann" }],
    });
    listening.abort();
    await listen;
    expect(heard.items.filter((n) => n.method === "notifications/resources/updated")).toHaveLength(
      1,
    );
  });
});

describe("list_changed after a registry change", () => {
  afterEach(closeSdkClients);

  it("announces a tool added at runtime, which is then listed and callable", async () => {
    const { sdk, inbox } = await connect();
    expect(
      await sdk.client.callTool({
        name: "add_definition",
        arguments: { kind: "tool", name: "runtime_tool" },
      }),
    ).toEqual({ content: [{ type: "text", text: "added tool runtime_tool" }] });
    await waitForMethod(inbox, "notifications/tools/list_changed");
    await sdk.client.ping();
    expect(inbox.items).toEqual([{ method: "notifications/tools/list_changed", params: {} }]);
    const { tools } = await sdk.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES, "runtime_tool"].sort());
    expect(tools.find((t) => t.name === "runtime_tool")).toEqual({
      name: "runtime_tool",
      description: "Added at runtime",
      inputSchema: { type: "object", properties: {} },
    });
    expect(await sdk.client.callTool({ name: "runtime_tool" })).toEqual({
      content: [{ type: "text", text: "added" }],
    });
  });

  it("the SDK client's own listChanged handling refetches the new list", async () => {
    const refreshed = new Inbox<string[]>();
    const sdk = await connectSdkInMemory({
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (error, tools) =>
            refreshed.push(error ? [`error: ${error.message}`] : (tools ?? []).map((t) => t.name)),
        },
      },
    });
    await sdk.client.callTool({
      name: "add_definition",
      arguments: { kind: "tool", name: "zz_auto" },
    });
    expect(await refreshed.waitFor(() => true, "the refreshed tool list")).toEqual([
      ...TOOL_NAMES,
      "zz_auto",
    ]);
  });

  it("announces a prompt added at runtime", async () => {
    const { sdk, inbox } = await connect();
    await sdk.client.callTool({
      name: "add_definition",
      arguments: { kind: "prompt", name: "runtime_prompt" },
    });
    await waitForMethod(inbox, "notifications/prompts/list_changed");
    await sdk.client.ping();
    expect(inbox.items).toEqual([{ method: "notifications/prompts/list_changed", params: {} }]);
    const { prompts } = await sdk.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      "code_review",
      "greet",
      "linked",
      "runtime_prompt",
    ]);
    expect(await sdk.client.getPrompt({ name: "runtime_prompt" })).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "added" } }],
    });
  });

  it("announces a resource added at runtime", async () => {
    const { sdk, inbox } = await connect();
    await sdk.client.callTool({
      name: "add_definition",
      arguments: { kind: "resource", name: "runtime_memo" },
    });
    await waitForMethod(inbox, "notifications/resources/list_changed");
    await sdk.client.ping();
    expect(inbox.items).toEqual([{ method: "notifications/resources/list_changed", params: {} }]);
    const { resources } = await sdk.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      "memo://dynamic-a",
      "memo://dynamic-b",
      "memo://runtime_memo",
      "memo://static",
    ]);
    expect(await sdk.client.readResource({ uri: "memo://runtime_memo" })).toEqual({
      contents: [{ uri: "memo://runtime_memo", mimeType: "text/plain", text: "added" }],
    });
  });
});

/** A client over stdio in this process: what it sends, and every message it receives. */
function stdioClient(server: McpServer) {
  const input = new PassThrough();
  const output = new PassThrough();
  const received = new Inbox<{ id?: number; method?: string }>();
  let rest = "";
  output.setEncoding("utf8").on("data", (chunk: string) => {
    rest += chunk;
    for (let end = rest.indexOf("\n"); end !== -1; end = rest.indexOf("\n")) {
      received.push(JSON.parse(rest.slice(0, end)));
      rest = rest.slice(end + 1);
    }
  });
  const served = serveStdio(server, { input, output });
  const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
  return {
    received,
    send,
    answer: (id: number) => received.waitFor((message) => message.id === id, `the answer to ${id}`),
    end: () => {
      input.end();
      return served;
    },
  };
}

const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const echo = (name: string) => defineTool({ name, description: "Echoes", handler: () => name });

describe("list_changed and a session's start", () => {
  it("tells a change to the sessions open when it was made, not to one opened in the same turn", async () => {
    const server = createServer({ name: "start", version: "1.0.0" }).add(echo("first"));
    const before = stdioClient(server);
    before.send(initialize(0));
    await before.answer(0);
    // One turn: a tool added, then a session opened (its client lists what the change made).
    server.add(echo("second"));
    const after = stdioClient(server);
    after.send(initialize(0));
    await after.answer(0);
    // The turn that tells changes passes (the notifier's setImmediate was queued
    // before this one), then each ping's answer follows what it told.
    await new Promise((resolve) => setImmediate(resolve));
    before.send(ping(1));
    after.send(ping(1));
    await Promise.all([before.answer(1), after.answer(1)]);
    expect(before.received.items.map((message) => message.method ?? message.id)).toEqual([
      0,
      "notifications/tools/list_changed",
      1,
    ]);
    expect(after.received.items.map((message) => message.method ?? message.id)).toEqual([0, 1]);
    await Promise.all([before.end(), after.end()]);
  });
});
