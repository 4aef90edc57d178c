/**
 * The 2026-07-28 revision on the wire, over stdio: raw newline-delimited
 * JSON-RPC to the programmatic fixture, so every byte the rules name can be
 * asserted (errors exactly, what is sent and what is not). One case runs the
 * fixture as a child process; the others through stdio's transport in this
 * process, over a pair of streams.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SERVER_INFO } from "../server/helpers/fixture.js";
import { type Json, killRawClients, RawClient } from "../server/helpers/raw-client.js";

const VERSION = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

function meta(extra: Json = {}): Json {
  return { [VERSION]: "2026-07-28", [CAPABILITIES]: {}, ...extra };
}

/** A 2026 request: params with the _meta envelope. */
function modern(client: RawClient, method: string, params: Json = {}, extraMeta: Json = {}) {
  return client.request(method, { ...params, _meta: meta(extraMeta) });
}

afterEach(killRawClients);

describe("the era of a stdio connection", () => {
  it("is not fixed by a server/discover probe: initialize still opens a 2025 session", async () => {
    // A child process: the real stdin and stdout. The other cases serve the same bytes
    // through stdio's transport in this process.
    const client = RawClient.start();
    const discovered = await modern(client, "server/discover");
    expect(discovered.result).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      ttlMs: 0,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": expect.objectContaining(SERVER_INFO) },
    });
    const initialized = await client.initialize("2025-11-25");
    expect(initialized.protocolVersion).toBe("2025-11-25");
    expect((await client.request("ping")).result).toEqual({});
  });

  it("is not fixed by a request claiming a version it does not serve: initialize still opens a session", async () => {
    const client = await RawClient.inProcess();
    const refused = await modern(client, "tools/list", {}, { [VERSION]: "1900-01-01" });
    expect(refused.error.code).toBe(-32022);
    expect((await client.initialize("2025-11-25")).protocolVersion).toBe("2025-11-25");
    expect((await client.request("ping")).result).toEqual({});
  });

  it("is fixed by a first 2026 request: initialize is then refused, saying why", async () => {
    const client = await RawClient.inProcess();
    expect((await modern(client, "tools/list")).result.resultType).toBe("complete");
    const initialize = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "x", version: "1" },
    };
    expect(await client.request("initialize", initialize, "late")).toEqual({
      jsonrpc: "2.0",
      id: "late",
      error: {
        code: -32022,
        message:
          'Unsupported protocol version: "2025-11-25" through initialize; this connection serves 2026-07-28 per request: a request claiming it in _meta came first, and that fixed the connection\'s era. A 2025 client must send initialize first, on a new connection',
        data: { supported: ["2026-07-28"], requested: "2025-11-25" },
      },
    });
    // Still a 2026 connection.
    expect((await modern(client, "tools/list")).result.resultType).toBe("complete");
  });

  it("is fixed by initialize: a request claiming 2026-07-28 is then refused, saying why", async () => {
    const client = await RawClient.inProcess();
    await client.initialize("2025-06-18");
    expect(await modern(client, "tools/list")).toEqual({
      jsonrpc: "2.0",
      id: expect.any(Number),
      error: {
        code: -32022,
        message: `Unsupported protocol version: "2026-07-28" on a 2025 session; this connection is a 2025 session at 2025-06-18: a message without a protocol version in _meta came first, and that fixed the connection's era. Send this session's requests without "${VERSION}" in _meta, or a 2026-07-28 request first, on a new connection`,
        data: { supported: ["2025-06-18"], requested: "2026-07-28" },
      },
    });
    // Still the 2025 session; a claim of its own version asks for nothing else.
    expect((await client.request("tools/list")).result.resultType).toBeUndefined();
    const ownVersion = { _meta: { [VERSION]: "2025-06-18" } };
    expect((await client.request("tools/list", ownVersion)).result.tools).toBeDefined();
  });

  it("is fixed by any 2025 message: before initialize, a 2026 claim is refused naming every 2025 revision", async () => {
    const client = await RawClient.inProcess();
    expect((await client.request("tools/list")).error.code).toBe(-32600);
    expect((await modern(client, "tools/list")).error).toEqual({
      code: -32022,
      message: `Unsupported protocol version: "2026-07-28" on a 2025 session; this connection is a 2025 session, not yet initialized: a message without a protocol version in _meta came first, and that fixed the connection's era. Send initialize, then this session's requests without "${VERSION}" in _meta, or a 2026-07-28 request first, on a new connection`,
      data: {
        supported: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"],
        requested: "2026-07-28",
      },
    });
  });
});

describe("a 2026-07-28 request over stdio", () => {
  it("is refused with -32602 without its _meta fields, and -32022 at a version not spoken", async () => {
    // On a connection no request has made stateless yet, no claim means 2025.
    const client = await RawClient.inProcess();
    expect(await client.request("tools/list", {}, 1)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32600,
        message: 'Server not initialized: send "initialize" before "tools/list"',
      },
    });
    // A probe fixes nothing; a 2026 request makes the connection stateless.
    const fresh = await RawClient.inProcess();
    await modern(fresh, "tools/list");
    expect((await fresh.request("tools/list", { _meta: { [CAPABILITIES]: {} } }, 2)).error).toEqual(
      {
        code: -32602,
        message: `Invalid params: tools/list has no "${VERSION}" in _meta; protocol 2026-07-28 carries "${VERSION}" and "${CAPABILITIES}" in the _meta of every request`,
      },
    );
    expect(
      (await fresh.request("tools/list", { _meta: { [VERSION]: "2026-07-28" } }, 3)).error,
    ).toEqual({
      code: -32602,
      message: `Invalid params: tools/list has no "${CAPABILITIES}" in _meta; protocol 2026-07-28 carries "${VERSION}" and "${CAPABILITIES}" in the _meta of every request`,
    });
    const old = await fresh.request("tools/list", { _meta: meta({ [VERSION]: "1900-01-01" }) }, 4);
    expect(old.error).toEqual({
      code: -32022,
      message:
        'Unsupported protocol version: "1900-01-01"; this server serves 2026-07-28 per request (and 2024-11-05 to 2025-11-25 through initialize, which over stdio must come first on its connection)',
      data: { supported: ["2026-07-28"], requested: "1900-01-01" },
    });
  });

  it("answers the methods 2026-07-28 removed with -32601", async () => {
    const client = await RawClient.inProcess();
    await modern(client, "tools/list");
    for (const method of [
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "resources/unsubscribe",
    ]) {
      expect((await modern(client, method, { level: "info", uri: "memo://x" })).error).toEqual({
        code: -32601,
        message: `Method not found: ${method}`,
      });
    }
  });

  it("gives handlers the client of each request and no session", async () => {
    const client = await RawClient.inProcess();
    const response = await modern(
      client,
      "tools/call",
      { name: "whoami" },
      {
        [CLIENT_INFO]: { name: "modern-client", version: "2.0.0" },
        [CAPABILITIES]: { roots: {} },
      },
    );
    expect(response.result.resultType).toBe("complete");
    expect(JSON.parse(response.result.content[0].text)).toEqual({
      protocolVersion: "2026-07-28",
      requestId: response.id,
      clientInfo: { name: "modern-client", version: "2.0.0" },
      clientCapabilities: { roots: {} },
      hasSession: false,
      sessionIdIsUuid: false,
      calls: 1,
    });
  });

  it("sends log messages only at or above the level the request's _meta asked for", async () => {
    const client = await RawClient.inProcess();
    const quiet = await modern(client, "tools/call", { name: "log_all" });
    expect(quiet.result.content).toEqual([{ type: "text", text: "logged" }]);
    expect(client.withMethod("notifications/message")).toEqual([]);
    await modern(client, "tools/call", { name: "log_all" }, { [LOG_LEVEL]: "critical" });
    expect(client.withMethod("notifications/message").map((m) => m.params.level)).toEqual([
      "critical",
      "alert",
      "emergency",
    ]);
    expect((await modern(client, "tools/list", {}, { [LOG_LEVEL]: "loud" })).error).toEqual({
      code: -32602,
      message:
        'Invalid params: "io.modelcontextprotocol/logLevel" must be one of debug, info, notice, warning, error, critical, alert, emergency',
    });
  });

  it("reports progress for its own progress token, before its result", async () => {
    const client = await RawClient.inProcess();
    const response = await modern(
      client,
      "tools/call",
      { name: "progress" },
      { progressToken: "p1" },
    );
    expect(response.result.content).toEqual([{ type: "text", text: "done" }]);
    const progress = client.withMethod("notifications/progress").map((m) => m.params);
    expect(progress).toEqual([
      { progressToken: "p1", progress: 1, total: 3, message: "one" },
      { progressToken: "p1", progress: 2, total: 3, message: "two" },
      { progressToken: "p1", progress: 3, total: 3, message: "three" },
    ]);
    const last = client.messages.items.findIndex((m: Json) => m.id === response.id);
    const lastProgress = client.messages.items.findLastIndex(
      (m: Json) => m.method === "notifications/progress",
    );
    expect(lastProgress).toBeLessThan(last);
  });

  it("ends with -32021 when the handler needs a capability the client did not declare", async () => {
    const client = await RawClient.inProcess();
    expect((await modern(client, "tools/call", { name: "sample" })).error).toEqual({
      code: -32021,
      message:
        'The client did not declare the "sampling" capability, so the server cannot ask the client\'s model for a completion. Check ctx.client.capabilities.sampling before calling.',
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it("is cancelled by notifications/cancelled, and nothing is sent for it", async () => {
    const client = await RawClient.inProcess();
    await modern(client, "tools/list");
    const hangId = client.id();
    client.send({
      jsonrpc: "2.0",
      id: hangId,
      method: "tools/call",
      params: { name: "hang", arguments: { key: "k1" }, _meta: meta() },
    });
    // A round trip after it: the hang's handler is running (and listening) by the answer.
    await modern(client, "tools/list");
    client.notify("notifications/cancelled", { requestId: hangId, reason: "changed my mind" });
    const reason = await modern(client, "tools/call", {
      name: "abort_reason",
      arguments: { key: "k1" },
    });
    expect(reason.result.content).toEqual([{ type: "text", text: "changed my mind" }]);
    // The reason's answer came after the cancellation: an answer to the hang would be before it.
    expect(client.messages.items.filter((m: Json) => m.id === hangId)).toEqual([]);
  });

  it("refuses a second request with an id still in flight", async () => {
    const client = await RawClient.inProcess();
    await modern(client, "tools/list");
    client.send({
      jsonrpc: "2.0",
      id: "dup",
      method: "tools/call",
      params: { name: "hang", arguments: { key: "k2" }, _meta: meta() },
    });
    const second = await modern(client, "tools/list", {}, {}).then(() =>
      client.request("tools/list", { _meta: meta() }, "dup"),
    );
    expect(second).toEqual({
      jsonrpc: "2.0",
      id: "dup",
      error: {
        code: -32600,
        message:
          'Invalid Request: id "dup" is already in use by a request in flight; give each request its own id',
      },
    });
  });
});

describe("subscriptions/listen over stdio", () => {
  /** Opens a listen stream and resolves to its acknowledgement. */
  async function listen(client: RawClient, id: string, notifications: Json): Promise<Json> {
    client.send({
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { notifications, _meta: meta() },
    });
    return client.waitForMethod(
      "notifications/subscriptions/acknowledged",
      (m) => m.params._meta[SUBSCRIPTION] === id,
    );
  }

  it("acknowledges what it honours, then carries only what was asked, tagged with its id", async () => {
    const client = await RawClient.inProcess();
    const toolsAck = await listen(client, "tools-stream", { toolsListChanged: true });
    expect(toolsAck.params).toEqual({
      _meta: { [SUBSCRIPTION]: "tools-stream" },
      notifications: { toolsListChanged: true },
    });
    const memoAck = await listen(client, "memo-stream", {
      resourceSubscriptions: ["memo://dynamic-a"],
      promptsListChanged: true,
    });
    expect(memoAck.params.notifications).toEqual({
      promptsListChanged: true,
      resourceSubscriptions: ["memo://dynamic-a"],
    });
    await modern(client, "tools/call", { name: "touch", arguments: { ids: ["a"] } });
    const updated = await client.waitForMethod("notifications/resources/updated");
    expect(updated.params).toEqual({
      _meta: { [SUBSCRIPTION]: "memo-stream" },
      uri: "memo://dynamic-a",
    });
    await modern(client, "tools/call", {
      name: "add_definition",
      arguments: { kind: "tool", name: "late" },
    });
    const changed = await client.waitForMethod("notifications/tools/list_changed");
    expect(changed.params).toEqual({ _meta: { [SUBSCRIPTION]: "tools-stream" } });
    // One of each, to the stream that asked, and nothing else was sent on either.
    const streamed = client.messages.items
      .filter((m: Json) => m.params?._meta?.[SUBSCRIPTION] !== undefined)
      .map((m: Json) => `${m.params._meta[SUBSCRIPTION]} ${m.method}`);
    expect(streamed).toEqual([
      "tools-stream notifications/subscriptions/acknowledged",
      "memo-stream notifications/subscriptions/acknowledged",
      "memo-stream notifications/resources/updated",
      "tools-stream notifications/tools/list_changed",
    ]);
  });

  it("ends on notifications/cancelled without a response, and refuses too many URIs", async () => {
    const client = await RawClient.inProcess();
    await listen(client, "short", { toolsListChanged: true });
    client.notify("notifications/cancelled", { requestId: "short" });
    await modern(client, "tools/call", {
      name: "add_definition",
      arguments: { kind: "tool", name: "after" },
    });
    // A later request round-trips after the change was published: nothing reached the stream.
    await modern(client, "tools/list");
    expect(client.withMethod("notifications/tools/list_changed")).toEqual([]);
    expect(client.messages.items.filter((m: Json) => m.id === "short")).toEqual([]);
    const uris = Array.from({ length: 1001 }, (_, i) => `memo://${i}`);
    const refused = await client.request("subscriptions/listen", {
      notifications: { resourceSubscriptions: uris },
      _meta: meta(),
    });
    expect(refused.error).toEqual({
      code: -32602,
      message:
        "subscriptions/listen: at most 1000 resourceSubscriptions per stream, got 1001; open several streams or raise maxSubscriptions",
    });
  });
});
