import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { INSTRUCTIONS, SERVER_INFO } from "./helpers/fixture.js";
import { killRawClients, RawClient } from "./helpers/raw-client.js";
import {
  closeSdkClients,
  connectSdk,
  connectSdkInMemory,
  type SdkConnection,
} from "./helpers/sdk-client.js";

const FULL_CAPABILITIES = {
  logging: {},
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
};

describe("lifecycle with the SDK client", () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    // In this process: the handshake and the session are the engine's, whatever the transport.
    sdk = await connectSdkInMemory({ capabilities: { roots: { listChanged: true } } });
  });
  afterAll(closeSdkClients);

  it("negotiates the newest revision and reports the server's info, capabilities and instructions", () => {
    expect(sdk.client.getServerVersion()).toEqual(SERVER_INFO);
    expect(sdk.client.getServerCapabilities()).toEqual(FULL_CAPABILITIES);
    expect(sdk.client.getInstructions()).toBe(INSTRUCTIONS);
  });

  it("answers ping with an empty result", async () => {
    expect(await sdk.client.ping()).toEqual({});
  });

  it("gives handlers the session: revision, client info and capabilities, request id, per-session state", async () => {
    const first = await sdk.client.callTool({ name: "whoami" });
    const second = await sdk.client.callTool({ name: "whoami" });
    const parse = (result: typeof first) =>
      JSON.parse((result.content as { type: "text"; text: string }[])[0]?.text ?? "null");
    const a = parse(first);
    const b = parse(second);
    expect(a).toEqual({
      protocolVersion: "2025-11-25",
      requestId: a.requestId,
      clientInfo: { name: "sdk-test-client", version: "9.9.9" },
      clientCapabilities: { roots: { listChanged: true } },
      hasSession: true,
      sessionIdIsUuid: true,
      calls: 1,
    });
    expect(typeof a.requestId).toBe("number");
    expect(b).toEqual({ ...a, requestId: a.requestId + 1, calls: 2 });
  });
});

describe("capabilities follow what is registered", () => {
  afterEach(killRawClients);

  it.each([
    ["none", { logging: {} }],
    ["tools", { logging: {}, tools: { listChanged: true } }],
    ["prompts", { logging: {}, prompts: { listChanged: true }, completions: {} }],
    [
      "resources",
      { logging: {}, resources: { subscribe: true, listChanged: true }, completions: {} },
    ],
    ["tools,prompts,resources", FULL_CAPABILITIES],
  ])("FIXTURE_KINDS=%s announces %j", async (kinds, capabilities) => {
    const { result } = await RawClient.initializedInProcess(
      "2025-11-25",
      {},
      {
        kinds: kinds.split(","),
      },
    );
    expect(result.capabilities).toEqual(capabilities);
  });
});

describe("process lifecycle", () => {
  afterEach(killRawClients);

  it("exits with code 0 when stdin closes after a session", async () => {
    const { client } = await RawClient.initialized("2025-11-25");
    expect(await client.result("ping")).toEqual({});
    expect(await client.close()).toEqual({ code: 0, signal: null });
    expect(client.garbage).toEqual([]);
  });

  it("exits with code 0 when stdin closes before anything was sent", async () => {
    const client = RawClient.start();
    expect(await client.close()).toEqual({ code: 0, signal: null });
    expect(client.messages.items).toEqual([]);
  });

  it("answers a handler that never returns at its time limit once stdin closes, then exits 0", async () => {
    const { client } = await RawClient.initialized(
      "2025-11-25",
      {},
      { FIXTURE_CALL_TIMEOUT_MS: "500" },
    );
    client.send({
      jsonrpc: "2.0",
      id: "hung",
      method: "tools/call",
      params: { name: "hang", arguments: { key: "at-exit" } },
    });
    // The server is responsive while the handler hangs.
    expect(await client.result("ping")).toEqual({});
    // End of input means no more requests, not "cancel": the hung call is still answered.
    const stopped =
      'Tool "hang" did not finish within the server\'s time limit of 500 ms and was stopped; to allow longer, set timeoutMs in its defineTool, or callTimeoutMs in mcp-dir.config.ts or createServer (0: no limit)';
    const exit = client.close();
    expect(await client.response("hung")).toEqual({
      jsonrpc: "2.0",
      id: "hung",
      result: { content: [{ type: "text", text: stopped }], isError: true },
    });
    await client.waitForStderr(`hang at-exit aborted: ${stopped}\n`);
    expect(await exit).toEqual({ code: 0, signal: null });
  });

  it("answers a handler waiting for the client's answer once stdin closes, then exits 0", async () => {
    const { client } = await RawClient.initialized("2025-11-25", { elicitation: {} });
    client.send({ jsonrpc: "2.0", id: "ask", method: "tools/call", params: { name: "ask_name" } });
    await client.waitForMethod("elicitation/create");
    const exit = client.close();
    const text =
      "The client's input ended before it answered: nothing it sends can arrive any more";
    expect(await client.response("ask")).toEqual({
      jsonrpc: "2.0",
      id: "ask",
      result: { content: [{ type: "text", text }], isError: true },
    });
    expect(await exit).toEqual({ code: 0, signal: null });
  });

  it("the SDK client's close() ends the child cleanly", async () => {
    const sdk = await connectSdk();
    const child = (
      sdk.transport as unknown as { _process?: import("node:child_process").ChildProcess }
    )._process;
    expect(child).toBeDefined();
    const exited = new Promise((resolve) =>
      child?.once("exit", (code, signal) => resolve({ code, signal })),
    );
    await sdk.client.close();
    expect(await exited).toEqual({ code: 0, signal: null });
  });
});

describe("a session", () => {
  afterEach(killRawClients);

  it("refuses a second initialize on the same session", async () => {
    const { client } = await RawClient.initializedInProcess("2025-06-18");
    const response = await client.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "again", version: "1" },
    });
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: response.id,
      error: { code: -32600, message: "initialize was already called on this session" },
    });
    const whoami = await client.result("tools/call", { name: "whoami" });
    expect(JSON.parse(whoami.content[0].text).protocolVersion).toBe("2025-06-18");
  });
});
