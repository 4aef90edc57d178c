/**
 * The web-standard handler, called with real Request objects (Node's own
 * fetch types): what every runtime that serves it (Deno, Bun, Workers) gets.
 * The runtimes themselves run it in test/build.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createFetchHandler, createServer, defineTool } from "../../src/index.js";

const server = createServer({ name: "fetch-test", version: "1.0.0" }).add(
  defineTool({
    name: "echo",
    description: "Echo",
    input: { message: z.string() },
    handler: ({ message }) => message,
  }),
  defineTool({
    name: "count",
    description: "Reports progress, then answers",
    handler: async (_args, ctx) => {
      await ctx.progress(1, 2, "half way");
      return "done";
    },
  }),
  defineTool({
    name: "ask",
    description: "Asks the user",
    handler: async (_args, ctx) => {
      try {
        await ctx.elicit({ message: "Name?", schema: { name: z.string() } });
        return "asked";
      } catch (error) {
        return `caught: ${(error as Error).message}`;
      }
    },
  }),
);
const handle = createFetchHandler(server, { authToken: "secret" });
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return handle(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        authorization: "Bearer secret",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body),
    }),
  );
}

describe("createFetchHandler", () => {
  it("refuses what any web page can send without a preflight, as serve --http does", async () => {
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { message: "hi" }, _meta: ENVELOPE },
    });
    const crossSite = (headers: Record<string, string>) =>
      handle(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { authorization: "Bearer secret", accept: "*/*", ...headers },
          body: call,
        }),
      );
    const rebound = await crossSite({
      host: "evil.com",
      origin: "http://evil.example",
      "content-type": "text/plain",
    });
    expect([rebound.status, await rebound.json()]).toEqual([
      403,
      {
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message:
            'Forbidden: Host "evil.com" is not allowed (DNS rebinding protection); add its hostname to allowedHosts to accept it',
        },
      },
    ]);
    const otherOrigin = await crossSite({
      origin: "http://evil.example",
      "content-type": "application/json",
    });
    expect(otherOrigin.status).toBe(403);
    const plainText = await crossSite({ "content-type": "text/plain" });
    expect([plainText.status, await plainText.json()]).toEqual([
      415,
      {
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message:
            'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json (got "text/plain")',
        },
      },
    ]);
  });

  it("serves a 2026-07-28 call as JSON", async () => {
    const response = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "echo", arguments: { message: "hi" }, _meta: ENVELOPE },
      },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "complete",
        content: [{ type: "text", text: "hi" }],
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "fetch-test", version: "1.0.0" } },
      },
    });
  });

  it("streams what comes before the answer as server-sent events", async () => {
    const response = await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "count", _meta: { ...ENVELOPE, progressToken: "p" } },
      },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "count" },
    );
    expect([response.status, response.headers.get("content-type")]).toEqual([
      200,
      "text/event-stream",
    ]);
    const events = (await response.text())
      .split("\n\n")
      .filter((event) => event.startsWith("data: "))
      .map((event) => JSON.parse(event.slice("data: ".length)));
    expect(events).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p", progress: 1, total: 2, message: "half way" },
      },
      {
        jsonrpc: "2.0",
        id: 2,
        result: {
          resultType: "complete",
          content: [{ type: "text", text: "done" }],
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "fetch-test", version: "1.0.0" } },
        },
      },
    ]);
  });

  it("serves a 2025 client without a session: initialize, offering only what reaches it, then each request on its own", async () => {
    const initialized = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    });
    expect(initialized.headers.get("mcp-session-id")).toBeNull();
    const { result } = (await initialized.json()) as {
      result: { protocolVersion: string; capabilities: unknown };
    };
    expect(result.protocolVersion).toBe("2025-11-25");
    // No list_changed, resource update, log message or task can reach it: none is offered.
    expect(result.capabilities).toEqual({ tools: {} });
    const headers = { "mcp-protocol-version": "2025-11-25" };
    expect(
      (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status,
    ).toBe(202);
    const called = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } },
      headers,
    );
    expect(await called.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {
        content: [
          {
            type: "text",
            text: 'caught: The client did not declare the "elicitation" capability, so the server cannot ask the user for input. Check ctx.client.capabilities.elicitation before calling.',
          },
        ],
      },
    });
  });

  it("refuses an unsupported MCP-Protocol-Version with 400, as serve --http does", async () => {
    const response = await post(
      { jsonrpc: "2.0", id: 4, method: "tools/list" },
      { "mcp-protocol-version": "1999-01-01" },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message:
          'Bad Request: unsupported MCP-Protocol-Version "1999-01-01"; this server speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25',
      },
    });
  });

  it("refuses a 2025 subscription, which needs a session to be delivered", async () => {
    const response = await post(
      { jsonrpc: "2.0", id: 3, method: "resources/subscribe", params: { uri: "memo://x" } },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32600,
        message:
          "Invalid Request: resources/subscribe needs a session, and this endpoint keeps none (it runs without a long-lived process): read the resource again when you need it, or use protocol 2026-07-28 and a subscriptions/listen stream",
      },
    });
  });

  it("refuses what it cannot serve, each with its status", async () => {
    const get = await handle(
      new Request("http://127.0.0.1/mcp", { headers: { authorization: "Bearer secret" } }),
    );
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    expect(
      (await handle(new Request("http://127.0.0.1/mcp", { method: "POST", body: "{}" }))).status,
    ).toBe(401);
    expect((await handle(new Request("http://127.0.0.1/other", { method: "POST" }))).status).toBe(
      404,
    );
    const batch = await post([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]);
    expect([batch.status, await batch.json()]).toEqual([
      400,
      {
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid Request: POST one JSON-RPC message, not a batch" },
      },
    ]);
    const garbage = await post("{oops");
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ error: { code: -32700 } });
  });
});

describe("createFetchHandler refuses framing as node:http does", () => {
  const headers = {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "echo",
  };
  const call = (message: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"${message}"},"_meta":${JSON.stringify(ENVELOPE)}}}`;
  const answer = async (response: Response) => [response.status, await response.json()];
  const refusal = (code: number, message: string) => ({ jsonrpc: "2.0", error: { code, message } });

  it("two Host headers, which Bun hands over joined into one", async () => {
    const joined = await post(call("hi"), { ...headers, host: "127.0.0.1, evil.example" });
    expect(await answer(joined)).toEqual([
      400,
      refusal(
        -32000,
        "Bad Request: the request has 2 Host headers; send exactly one (RFC 9112, section 3.2)",
      ),
    ]);
  });

  it("a charset other than UTF-8", async () => {
    const utf16 = await post(call("hi"), {
      ...headers,
      "content-type": "application/json; charset=utf-16",
    });
    expect(await answer(utf16)).toEqual([
      415,
      refusal(
        -32000,
        'Unsupported Media Type: send the JSON-RPC message in UTF-8, as Content-Type: application/json or application/json; charset=utf-8 (got charset "utf-16")',
      ),
    ]);
  });

  it("a body that is not UTF-8, told apart from one holding U+FFFD", async () => {
    const [before, after] = call("@").split("@") as [string, string];
    const latin1 = Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(after)]);
    expect(await answer(await post(latin1, headers))).toEqual([
      400,
      refusal(
        -32700,
        "Parse error: the body is not valid UTF-8; send the JSON-RPC message encoded in UTF-8",
      ),
    ]);
    const replacement = await post(call("\uFFFD é"), headers);
    expect(replacement.status).toBe(200);
    const { result } = (await replacement.json()) as { result: { content: unknown } };
    expect(result.content).toEqual([{ type: "text", text: "\uFFFD é" }]);
  });
});

describe("createFetchHandler's time limit on a body", () => {
  const headers = {
    authorization: "Bearer secret",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };

  it("answers 408 to a body that has not ended within requestTimeoutMs, and stops reading it", async () => {
    const limited = createFetchHandler(server, { authToken: "secret", requestTimeoutMs: 50 });
    let cancelled!: () => void;
    const stopped = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('{"jso')),
      cancel: () => cancelled(),
    });
    const response = await limited(
      new Request("http://127.0.0.1/mcp", { method: "POST", headers, body, duplex: "half" }),
    );
    expect([response.status, await response.json()]).toEqual([
      408,
      {
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message:
            "Request Timeout: the body did not arrive whole within 50 ms; send it at once, or raise requestTimeoutMs",
        },
      },
    ]);
    await stopped;
  });

  it("refuses a limit that is not a whole number of ms", () => {
    expect(() => createFetchHandler(server, { requestTimeoutMs: -5 })).toThrow(
      "requestTimeoutMs must be a whole number of 0 (no limit) or more, got -5",
    );
  });
});
