/**
 * The official SDK client (StreamableHTTPClientTransport) against serveHttp:
 * every method, streams in both directions, resumption and DELETE.
 */
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineTool } from "../../src/index.js";
import {
  connectClient,
  deferred,
  INITIALIZE,
  post,
  postHeaders,
  type Running,
  startFixture,
} from "./helpers.js";

let running: Running;
const closers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  running = await startFixture();
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await running.serving.close();
});

async function connect(options: { fetch?: typeof fetch } = {}) {
  const connected = await connectClient(running.url, options);
  closers.push(() => connected.client.close());
  return connected;
}

function text(result: unknown): string {
  const [first] = (result as { content: Array<{ text?: string }> }).content;
  return first?.text ?? "";
}

describe("the SDK client over Streamable HTTP", () => {
  it("initializes a session and learns the server", async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[\x21-\x7E]+$/);
    expect(client.getServerVersion()).toEqual({ name: "http-fixture", version: "1.0.0" });
    expect(client.getInstructions()).toBe("Be kind.");
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      completions: {},
    });
    expect(running.server.sessionCount).toBe(1);
  });

  it("answers every request method", async () => {
    const { client } = await connect();
    expect(await client.ping()).toEqual({});

    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual([
      "add",
      "ask_name",
      "echo",
      "fail",
      "gated",
      "hang",
      "log_steps",
      "progress_steps",
      "roots",
      "sample",
    ]);
    expect(text(await client.callTool({ name: "echo", arguments: { message: "hi" } }))).toBe("hi");
    const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    const failed = await client.callTool({ name: "fail", arguments: {} });
    expect(failed).toEqual({
      content: [{ type: "text", text: "the tool failed on purpose" }],
      isError: true,
    });

    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(["greet"]);
    const prompt = await client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "Say hello to Ada." } },
    ]);
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "name", value: "A" },
    });
    expect(completion.completion).toEqual({ values: ["Ada", "Alan"], total: 2, hasMore: false });

    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri).sort()).toEqual([
      "memo://dynamic",
      "memo://static",
    ]);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(["memo://items/{id}"]);
    const item = await client.readResource({ uri: "memo://items/7" });
    expect(item.contents).toEqual([
      { uri: "memo://items/7", mimeType: "text/plain", text: "item 7" },
    ]);
    expect(await client.subscribeResource({ uri: "memo://static" })).toEqual({});
    expect(await client.unsubscribeResource({ uri: "memo://static" })).toEqual({});
    expect(await client.setLoggingLevel("warning")).toEqual({});
    await client.sendRootsListChanged();
  });

  it("carries progress on the request's stream, before the result", async () => {
    const { client } = await connect();
    const progress: unknown[] = [];
    const result = await client.callTool({ name: "progress_steps", arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(text(result)).toBe("done");
    expect(progress).toEqual([
      { progress: 1, total: 3, message: "one" },
      { progress: 2, total: 3, message: "two" },
      { progress: 3, total: 3, message: "three" },
    ]);
  });

  it("carries log messages before the result, at the level the client set", async () => {
    const { client } = await connect();
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    await client.setLoggingLevel("warning");
    const result = await client.callTool({ name: "log_steps", arguments: {} });
    expect(text(result)).toBe("logged");
    expect(logs).toEqual([
      { level: "warning", logger: "fixture", data: "second" },
      { level: "error", logger: "fixture", data: { detail: "third" } },
    ]);
  });

  it("round-trips elicitation, sampling and roots over HTTP", async () => {
    const { client } = await connect();
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      expect(request.params.message).toBe("What is your name?");
      return { action: "accept", content: { name: "Ada" } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      model: "test-model",
      role: "assistant",
      content: { type: "text", text: "hi there" },
    }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: "file:///a" }, { uri: "file:///b" }],
    }));
    const [elicited, sampled, roots] = await Promise.all([
      client.callTool({ name: "ask_name", arguments: {} }),
      client.callTool({ name: "sample", arguments: {} }),
      client.callTool({ name: "roots", arguments: {} }),
    ]);
    expect(text(elicited)).toBe("Hello, Ada");
    expect(text(sampled)).toBe("test-model said: hi there");
    expect(text(roots)).toBe("file:///a,file:///b");
    expect(running.serving.stats()).toMatchObject({ requestsInFlight: 0, resumableStreams: 0 });
  });

  it("delivers list_changed on the GET stream after a registry change", async () => {
    const { client } = await connect();
    const changed = deferred();
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.resolve());
    running.server.add(
      defineTool({ name: "added", description: "Added at run time", handler: () => "added" }),
    );
    await changed.promise;
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("added");
  });

  it("delivers resources/updated to subscribers on the GET stream", async () => {
    const { client } = await connect();
    const updated = deferred<string>();
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) =>
      updated.resolve(n.params.uri),
    );
    await client.subscribeResource({ uri: "memo://dynamic" });
    running.touch();
    expect(await updated.promise).toBe("memo://dynamic");
    const read = await client.readResource({ uri: "memo://dynamic" });
    expect(read.contents[0]).toMatchObject({ text: "dynamic version 2" });
  });

  it("resumes a dropped request stream with Last-Event-ID and gets the result", async () => {
    const resumedWith = deferred<string>();
    // Cuts the stream of the gated call right after its first progress event, as a
    // dropped connection would, and reports the GET the client resumes with.
    const cuttingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const lastEventId = new Headers(init?.headers).get("last-event-id");
      if (init?.method === "GET" && lastEventId) resumedWith.resolve(lastEventId);
      const isGated = typeof init?.body === "string" && init.body.includes('"gated"');
      if (!isGated || !response.body) return response;
      const upstream = response.body.getReader();
      let seenProgress = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (seenProgress) {
            await upstream.cancel();
            controller.close();
            return;
          }
          const { done, value } = await upstream.read();
          if (done) {
            controller.close();
            return;
          }
          seenProgress = new TextDecoder().decode(value).includes("notifications/progress");
          controller.enqueue(value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const { client } = await connect({ fetch: cuttingFetch });
    const progress: number[] = [];
    const call = client.callTool({ name: "gated", arguments: { key: "resume" } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    const lastEventId = await resumedWith.promise;
    expect(lastEventId).toMatch(/^\d+\.\d+$/);
    running.gates.open("resume", "the gate");
    expect(text(await call)).toBe("released with the gate");
    expect(progress).toEqual([1, 2]);
    expect(running.serving.stats()).toMatchObject({ requestsInFlight: 0, resumableStreams: 0 });
  });

  it("cancels a request and closes its POST", async () => {
    const { client } = await connect();
    const abort = new AbortController();
    const call = client.callTool({ name: "hang", arguments: { key: "cancel" } }, undefined, {
      signal: abort.signal,
    });
    const aborted = running.gates.wait("cancel");
    await running.gates.wait("cancel:started");
    expect(running.serving.stats().requestsInFlight).toBe(1);
    abort.abort("changed my mind");
    await expect(call).rejects.toThrow("changed my mind");
    expect(await aborted).toBe("aborted");
    expect(running.serving.stats().requestsInFlight).toBe(0);
  });

  it("ends the session on DELETE; its id then gets 404", async () => {
    const { transport } = await connect();
    const sessionId = transport.sessionId as string;
    expect(running.server.sessionCount).toBe(1);
    await transport.terminateSession();
    expect(running.server.sessionCount).toBe(0);
    const after = await post(
      running.url,
      { jsonrpc: "2.0", id: 1, method: "ping" },
      postHeaders(sessionId),
    );
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32001,
        message:
          "Session not found: it ended or never existed; send initialize again without an Mcp-Session-Id",
      },
    });
  });

  it("serves several clients at once, each in its own session", async () => {
    const clients = await Promise.all([connect(), connect(), connect()]);
    const ids = new Set(clients.map(({ transport }) => transport.sessionId));
    expect(ids.size).toBe(3);
    const echoes = await Promise.all(
      clients.map(({ client }, i) =>
        client.callTool({ name: "echo", arguments: { message: `${i}` } }),
      ),
    );
    expect(echoes.map(text)).toEqual(["0", "1", "2"]);
    expect(running.server.sessionCount).toBe(3);
  });

  it("closes every session when the server closes", async () => {
    await connect();
    await connect();
    expect(running.server.sessionCount).toBe(2);
    await running.serving.close();
    expect(running.server.sessionCount).toBe(0);
    await expect(
      fetch(running.url, {
        method: "POST",
        headers: postHeaders(),
        body: JSON.stringify(INITIALIZE),
      }),
    ).rejects.toThrow();
  });
});
