/**
 * `mcp-dir serve example-server --http --port 0`, the real CLI in a child process,
 * used by the official SDK client (StreamableHTTPClientTransport): every method,
 * progress and elicitation on the request's stream, resumption of a dropped
 * stream with Last-Event-ID, and DELETE.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CliServer,
  connect,
  EXAMPLE_SERVER,
  openGetStream,
  openSession,
  post,
  postHeaders,
  SseReader,
  startCli,
  stopAll,
  text,
} from "./helpers.js";

let server: CliServer;

beforeAll(async () => {
  server = await startCli(["serve", "example-server", "--http", "--port", "0"]);
});

afterAll(stopAll);

describe("mcp-dir serve example-server --http", () => {
  it("prints one banner line that ends with the endpoint on a free loopback port", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.url).not.toMatch(/:0\//);
    expect(server.stderr()).toBe(
      `mcp-dir: serving example-server 1.0.0 from example-server (10 tools, 2 prompts, 3 resources, 1 resource template, 1 view) at ${server.url}\n`,
    );
    expect(server.stdout()).toBe("");
  });

  it("initializes a session with the server's identity, capabilities and instructions", async () => {
    const { client, transport } = await connect(server.url);
    expect(transport.sessionId).toMatch(/^[\x21-\x7E]+$/);
    expect(client.getServerVersion()).toEqual({
      name: "example-server",
      version: "1.0.0",
      title: "mcp-dir example",
      description:
        "A small team workspace: arithmetic, text statistics, charts and a team directory",
    });
    expect(client.getServerCapabilities()).toEqual({
      logging: {},
      completions: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      extensions: { "io.modelcontextprotocol/ui": {} },
    });
    expect(client.getInstructions()).toMatch(/^Tools: calculator, text_stats/);
  });

  it("answers ping and logging/setLevel with an empty result", async () => {
    const { client } = await connect(server.url);
    expect(await client.ping()).toEqual({});
    for (const level of ["debug", "warning", "emergency"] as const) {
      expect(await client.setLoggingLevel(level)).toEqual({});
    }
  });

  it("lists and calls tools: text, errors, structured content, images, resource links", async () => {
    const { client } = await connect(server.url);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "calculator",
      "chart",
      "poll",
      "primes",
      "report",
      "team_invite",
      "team_lookup",
      "temperature",
      "text_stats",
    ]);
    expect(tools.every((tool) => tool.description && tool.inputSchema.type === "object")).toBe(
      true,
    );

    expect(
      await client.callTool({ name: "calculator", arguments: { operation: "add", a: 2, b: 3 } }),
    ).toEqual({ content: [{ type: "text", text: "5" }] });
    expect(
      await client.callTool({
        name: "calculator",
        arguments: { operation: "divide", a: 1, b: 0 },
      }),
    ).toEqual({ content: [{ type: "text", text: "Cannot divide by zero" }], isError: true });
    const invalid = await client.callTool({ name: "calculator", arguments: { a: "x" } });
    expect(invalid.isError).toBe(true);

    const stats = await client.callTool({
      name: "text_stats",
      arguments: { text: "One two three. Four five!" },
    });
    expect(stats.structuredContent).toEqual({
      words: 5,
      sentences: 2,
      characters: 25,
      readingMinutes: 0,
    });

    const chart = await client.callTool({ name: "chart", arguments: { values: [1, 2] } });
    expect(chart.content).toMatchObject([
      { type: "text", text: "A bar chart of 2 values (max 2), 52×112 pixels" },
      { type: "image", mimeType: "image/png" },
    ]);

    const found = await client.callTool({ name: "team_lookup", arguments: { query: "design" } });
    expect(found.content).toEqual([
      {
        type: "resource_link",
        uri: "users://susan",
        name: "susan",
        title: "Susan Kare",
        description: "design: icons, typography",
        mimeType: "application/json",
      },
    ]);

    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow(/-32602/);
  });

  it("carries progress on the call's stream, every step before the result", async () => {
    const { client } = await connect(server.url);
    const progress: Array<{ progress: number; total?: number }> = [];
    const result = await client.callTool(
      { name: "primes", arguments: { below: 1000 } },
      undefined,
      { onprogress: ({ progress: done, total }) => progress.push({ progress: done, total }) },
    );
    expect(text(result)).toBe("There are 168 primes below 1000.");
    expect(progress).toEqual(
      [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000].map((done) => ({
        progress: done,
        total: 1000,
      })),
    );
  });

  it("round-trips elicitation: the server asks on the call's stream, the client answers", async () => {
    const asked: unknown[] = [];
    const { client } = await connect(server.url, {
      capabilities: { elicitation: {} },
      setup: (c) =>
        c.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push(request.params.message);
          return { action: "accept", content: { team: "design", role: "admin" } };
        }),
    });
    const result = await client.callTool({
      name: "team_invite",
      arguments: { email: "kay@example.com" },
    });
    expect(text(result)).toBe("Invited kay@example.com to design as an admin.");
    expect(asked).toEqual(["Which team should kay@example.com join, and with which role?"]);
  });

  it("lists and gets prompts, Markdown ones included, and completes prompt arguments", async () => {
    const { client } = await connect(server.url);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => [prompt.name, prompt.arguments?.map((a) => a.name)])).toEqual([
      ["code_review", ["code", "language", "focus"]],
      ["standup", ["yesterday", "today", "blockers"]],
    ]);
    const review = await client.getPrompt({
      name: "code_review",
      arguments: { code: "x = 1", language: "python" },
    });
    expect(review.messages[0]?.content).toMatchObject({
      type: "text",
      text: expect.stringMatching(/^Please review this python code\./),
    });
    const standup = await client.getPrompt({
      name: "standup",
      arguments: { yesterday: "a", today: "b" },
    });
    expect(standup.messages[0]?.content).toMatchObject({
      text: expect.stringContaining("Yesterday: a\nToday: b\n"),
    });
    await expect(client.getPrompt({ name: "standup", arguments: {} })).rejects.toThrow(
      'MCP error -32602: Missing required arguments for prompt "standup": yesterday, today',
    );
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "code_review" },
      argument: { name: "focus", value: "s" },
    });
    expect(completion.completion.values).toEqual(["security"]);
  });

  it("lists and reads resources and templates, subscribes, and completes template variables", async () => {
    const { client } = await connect(server.url);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      "file:///config.json",
      "file:///guide.md",
      "file:///logo.png",
    ]);
    const guide = await client.readResource({ uri: "file:///guide.md" });
    expect(guide.contents).toEqual([
      {
        uri: "file:///guide.md",
        mimeType: "text/markdown",
        text: await readFile(join(EXAMPLE_SERVER, "resources", "guide.md"), "utf8"),
      },
    ]);
    const logo = await client.readResource({ uri: "file:///logo.png" });
    expect(logo.contents[0]).toMatchObject({ mimeType: "image/png", blob: expect.any(String) });

    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(["users://{id}"]);
    const grace = await client.readResource({ uri: "users://grace" });
    expect(JSON.parse((grace.contents[0] as { text: string }).text)).toMatchObject({
      name: "Grace Hopper",
      team: "platform",
    });
    await expect(client.readResource({ uri: "users://nobody" })).rejects.toMatchObject({
      code: -32002,
    });

    const completion = await client.complete({
      ref: { type: "ref/resource", uri: "users://{id}" },
      argument: { name: "id", value: "m" },
    });
    expect(completion.completion.values).toEqual(["margaret"]);

    expect(await client.subscribeResource({ uri: "file:///guide.md" })).toEqual({});
    expect(await client.unsubscribeResource({ uri: "file:///guide.md" })).toEqual({});
  });

  it("keeps sessions apart: several clients at once, each with its own id", async () => {
    const all = await Promise.all([connect(server.url), connect(server.url), connect(server.url)]);
    expect(new Set(all.map(({ transport }) => transport.sessionId)).size).toBe(3);
    const sums = await Promise.all(
      all.map(({ client }, i) =>
        client.callTool({ name: "calculator", arguments: { operation: "add", a: i, b: 10 } }),
      ),
    );
    expect(sums.map(text)).toEqual(["10", "11", "12"]);
  });

  it("sends no log messages the client did not ask for", async () => {
    const { client } = await connect(server.url);
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    await client.setLoggingLevel("error");
    await client.callTool({ name: "calculator", arguments: { operation: "add", a: 1, b: 1 } });
    expect(logs).toEqual([]);
  });

  it("resumes a dropped call stream with Last-Event-ID and delivers the rest exactly once", async () => {
    // Cuts the primes call's SSE stream right after its first progress event, as
    // a dropped connection would; the server keeps the rest for replay.
    const cut = (response: Response, init: RequestInit | undefined): Response => {
      const isPrimes = typeof init?.body === "string" && init.body.includes('"primes"');
      if (!isPrimes || !response.body) return response;
      const upstream = response.body.getReader();
      const decoder = new TextDecoder();
      const encoder = new TextEncoder();
      let buffer = "";
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await upstream.read();
          if (done) {
            controller.close();
            return;
          }
          buffer += decoder.decode(value, { stream: true });
          // Forward whole events only, and stop after the first progress event.
          for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
            const event = buffer.slice(0, end + 2);
            buffer = buffer.slice(end + 2);
            controller.enqueue(encoder.encode(event));
            if (event.includes('"method":"notifications/progress"')) {
              controller.close();
              await upstream.cancel();
              return;
            }
          }
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const { client, resumedWith } = await connect(server.url, { wrapFetch: cut });
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "primes", arguments: { below: 1000 } },
      undefined,
      { onprogress: ({ progress: done }) => progress.push(done) },
    );
    expect(text(result)).toBe("There are 168 primes below 1000.");
    expect(progress).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(resumedWith).toHaveLength(1);
    expect(resumedWith[0]).toMatch(/^[1-9]\d*\.\d+$/);
  });

  it("ends a session on DELETE: its GET stream closes and its id then gets 404", async () => {
    const sessionId = await openSession(server.url);
    const stream = new SseReader(await openGetStream(server.url, sessionId));
    expect(await stream.next()).toMatchObject({ data: "", retry: 1000 });

    const deleted = await fetch(server.url, {
      method: "DELETE",
      headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    });
    expect(deleted.status).toBe(204);
    expect(await stream.next()).toBeUndefined();

    const notFound = {
      jsonrpc: "2.0",
      error: {
        code: -32001,
        message:
          "Session not found: it ended or never existed; send initialize again without an Mcp-Session-Id",
      },
    };
    const ping = await post(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "ping" },
      postHeaders(sessionId),
    );
    expect(ping.status).toBe(404);
    expect(await ping.json()).toEqual(notFound);
    const get = await openGetStream(server.url, sessionId);
    expect(get.status).toBe(404);
    await get.body?.cancel();
    const again = await fetch(server.url, {
      method: "DELETE",
      headers: { "mcp-session-id": sessionId },
    });
    expect(again.status).toBe(404);
    await again.body?.cancel();
  });

  it("the SDK client's terminateSession ends its session", async () => {
    const { transport } = await connect(server.url);
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    const ping = await post(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "ping" },
      postHeaders(sessionId),
    );
    expect(ping.status).toBe(404);
    await ping.body?.cancel();
  });

  it("answers /health", async () => {
    const health = await fetch(`${server.origin}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
  });

  it("stays up and quiet on stderr through all of this", async () => {
    const { client } = await connect(server.url);
    expect(await client.ping()).toEqual({});
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr().split("\n").filter(Boolean)).toHaveLength(1);
  });
});
