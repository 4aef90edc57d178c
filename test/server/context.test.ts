import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { Inbox } from "./helpers/inbox.js";
import { killRawClients, RawClient } from "./helpers/raw-client.js";
import { closeSdkClients, connectSdkInMemory, type SdkConnection } from "./helpers/sdk-client.js";

const text = (value: string) => ({ content: [{ type: "text", text: value }] });
const toolError = (value: string) => ({ content: [{ type: "text", text: value }], isError: true });

const ALL_LOGS = [
  { level: "debug", logger: "fixture", data: "debug message" },
  { level: "info", logger: "fixture", data: "info message" },
  { level: "notice", logger: "fixture", data: { detail: "notice data" } },
  { level: "warning", logger: "fixture", data: "warning message" },
  { level: "error", logger: "fixture", data: "error message" },
  { level: "critical", logger: "fixture", data: "critical message" },
  { level: "alert", logger: "fixture", data: "alert message" },
  { level: "emergency", data: "emergency message" },
];

describe("progress", () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    sdk = await connectSdkInMemory();
  });
  afterAll(closeSdkClients);

  it("sends increasing progress with total and message to a client that asked for it", async () => {
    const progress = new Inbox<Progress>();
    const call = sdk.client.callTool(
      { name: "progress_until_released", arguments: { key: "p1" } },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p) },
    );
    await progress.waitFor((p) => p.progress === 3, "the third progress report");
    expect(await sdk.client.callTool({ name: "release", arguments: { key: "p1" } })).toEqual(
      text("released p1"),
    );
    expect(await call).toEqual(text("released"));
    expect(progress.items).toEqual([
      { progress: 1, total: 3, message: "one" },
      { progress: 2, total: 3, message: "two" },
      { progress: 3, total: 3, message: "three" },
    ]);
    // The fourth report went backwards: not sent, and the author is told why.
    await sdk.stderr.waitFor(
      (all) =>
        all.includes(
          "mcp-dir: progress must increase with each report: 2 came after 3; it was not sent\n",
        ),
      "the progress warning on stderr",
    );
  });

  it("sends no progress when the request carries no progressToken", async () => {
    const { client } = await RawClient.initializedInProcess("2025-11-25");
    onTestFinished(() => client.kill());
    // Progress would be written before the response.
    expect(await client.result("tools/call", { name: "progress" })).toEqual(text("done"));
    expect(client.withMethod("notifications/progress")).toEqual([]);
  });

  it("echoes a string progressToken, before the response", async () => {
    const { client } = await RawClient.initializedInProcess("2025-11-25");
    onTestFinished(() => client.kill());
    const response = await client.request("tools/call", {
      name: "progress",
      _meta: { progressToken: "tok" },
    });
    const progress = (progress: number, message: string) => ({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "tok", progress, total: 3, message },
    });
    expect(client.messages.items.slice(-4)).toEqual([
      progress(1, "one"),
      progress(2, "two"),
      progress(3, "three"),
      response,
    ]);
    expect(response.result).toEqual(text("done"));
  });
});

describe("logging", () => {
  let sdk: SdkConnection;
  const logs = new Inbox<LoggingMessageNotification["params"]>();

  beforeAll(async () => {
    sdk = await connectSdkInMemory({
      setup: (client) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
          logs.push(n.params);
        }),
    });
  });
  afterAll(closeSdkClients);

  /** What one log_all call sent; its emergency message is logged last, after all the others. */
  const logAll = async () => {
    expect(await sdk.client.callTool({ name: "log_all" })).toEqual(text("logged"));
    await logs.waitFor((l) => l.level === "emergency", "the emergency message");
    const sent = [...logs.items];
    logs.items.length = 0;
    return sent;
  };

  it("sends every level by default, with logger and data", async () => {
    expect(await logAll()).toEqual(ALL_LOGS);
  });

  it("logging/setLevel filters out the levels below it", async () => {
    expect(await sdk.client.setLoggingLevel("warning")).toEqual({});
    expect(await logAll()).toEqual(ALL_LOGS.slice(3));
    expect(await sdk.client.setLoggingLevel("emergency")).toEqual({});
    expect(await logAll()).toEqual(ALL_LOGS.slice(7));
    expect(await sdk.client.setLoggingLevel("info")).toEqual({});
    expect(await logAll()).toEqual(ALL_LOGS.slice(1));
    expect(await sdk.client.setLoggingLevel("debug")).toEqual({});
    expect(await logAll()).toEqual(ALL_LOGS);
  });

  it("refuses an unknown level with -32602", async () => {
    const error = await sdk.client.setLoggingLevel("verbose" as "debug").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: -32602,
      message:
        'MCP error -32602: logging/setLevel: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency',
    });
  });
});

describe("elicitation, sampling and roots round trips", () => {
  let sdk: SdkConnection;
  const elicitations: unknown[] = [];
  const samplings: unknown[] = [];
  let elicitAnswer: () => ElicitResult | Promise<ElicitResult> = () => ({ action: "cancel" });
  const ROOTS = [{ uri: "file:///work/project", name: "project" }, { uri: "file:///tmp" }];
  let roots: { uri: string; name?: string }[] = ROOTS;

  beforeAll(async () => {
    sdk = await connectSdkInMemory({
      capabilities: { elicitation: {}, sampling: {}, roots: { listChanged: true } },
      setup: (client) => {
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          elicitations.push(request.params);
          return elicitAnswer();
        });
        client.setRequestHandler(
          CreateMessageRequestSchema,
          async (request): Promise<CreateMessageResult> => {
            samplings.push(request.params);
            return {
              role: "assistant",
              content: { type: "text", text: "hi there" },
              model: "test-model",
              stopReason: "endTurn",
            };
          },
        );
        client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
      },
    });
  });
  afterAll(closeSdkClients);

  it("elicitation: sends the message and the JSON Schema, returns the accepted content", async () => {
    elicitations.length = 0;
    elicitAnswer = () => ({ action: "accept", content: { name: "Ada" } });
    expect(await sdk.client.callTool({ name: "ask_name" })).toEqual(text("Hello, Ada"));
    expect(elicitations).toEqual([
      {
        message: "What is your name?",
        requestedSchema: {
          type: "object",
          properties: { name: { type: "string", description: "Your name" } },
          required: ["name"],
        },
      },
    ]);
  });

  it("elicitation: decline and cancel reach the handler as the action", async () => {
    elicitAnswer = () => ({ action: "decline" });
    expect(await sdk.client.callTool({ name: "ask_name" })).toEqual(text("decline"));
    elicitAnswer = () => ({ action: "cancel" });
    expect(await sdk.client.callTool({ name: "ask_name" })).toEqual(text("cancel"));
  });

  it("elicitation: an answer that does not match the schema is the tool's error", async () => {
    elicitAnswer = () => ({ action: "accept", content: { name: 42 } });
    expect(await sdk.client.callTool({ name: "ask_name" })).toEqual(
      toolError(
        "The client's answer does not match the elicitation schema: name: Invalid input: expected string, received number",
      ),
    );
  });

  it("elicitation: an error response from the client is the tool's error, naming the ask", async () => {
    elicitAnswer = () => {
      throw new Error("the user closed the dialog");
    };
    expect(await sdk.client.callTool({ name: "ask_name" })).toEqual(
      toolError(
        "the client answered elicitation/create with error -32603: the user closed the dialog",
      ),
    );
  });

  it("sampling: a string becomes one user message with the default maxTokens", async () => {
    samplings.length = 0;
    expect(await sdk.client.callTool({ name: "sample" })).toEqual(
      text("test-model said: hi there"),
    );
    expect(samplings).toEqual([
      { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 1024 },
    ]);
  });

  it("roots: returns the client's roots", async () => {
    expect(await sdk.client.callTool({ name: "roots" })).toEqual(
      text('{"roots":[{"uri":"file:///work/project","name":"project"},{"uri":"file:///tmp"}]}'),
    );
  });

  it("roots: asks again after the client says its roots changed", async () => {
    roots = [{ uri: "file:///elsewhere", name: "elsewhere" }];
    await sdk.client.sendRootsListChanged();
    expect(await sdk.client.callTool({ name: "roots" })).toEqual(
      text('{"roots":[{"uri":"file:///elsewhere","name":"elsewhere"}]}'),
    );
    roots = ROOTS;
  });

  it("serves several round trips at once", async () => {
    elicitAnswer = () => ({ action: "accept", content: { name: "Grace" } });
    const results = await Promise.all([
      sdk.client.callTool({ name: "ask_name" }),
      sdk.client.callTool({ name: "sample" }),
      sdk.client.callTool({ name: "roots" }),
      sdk.client.callTool({ name: "ask_name" }),
    ]);
    expect(results).toEqual([
      text("Hello, Grace"),
      text("test-model said: hi there"),
      text('{"roots":[{"uri":"file:///work/project","name":"project"},{"uri":"file:///tmp"}]}'),
      text("Hello, Grace"),
    ]);
  });
});

describe("a client without those capabilities", () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    sdk = await connectSdkInMemory({ capabilities: {} });
  });
  afterAll(closeSdkClients);

  it.each([
    [
      "ask_name",
      'The client did not declare the "elicitation" capability, so the server cannot ask the user for input. Check ctx.client.capabilities.elicitation before calling.',
    ],
    [
      "sample",
      `The client did not declare the "sampling" capability, so the server cannot ask the client's model for a completion. Check ctx.client.capabilities.sampling before calling.`,
    ],
    [
      "roots",
      `The client did not declare the "roots" capability, so the server cannot list the client's roots. Check ctx.client.capabilities.roots before calling.`,
    ],
  ])("%s is the tool's error, and nothing is sent to the client", async (tool, message) => {
    expect(await sdk.client.callTool({ name: tool })).toEqual(toolError(message));
  });
});

describe("cancellation with the SDK client", () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    // In this process: the handler tells of its abort through the fixture's report, in `stderr`.
    sdk = await connectSdkInMemory();
  });
  afterAll(closeSdkClients);

  it("a handler that never returns blocks nothing, and aborting the call aborts its ctx.signal", async () => {
    const controller = new AbortController();
    const call = sdk.client.callTool(
      { name: "hang", arguments: { key: "sdk" } },
      CallToolResultSchema,
      { signal: controller.signal },
    );
    const settled = call.then(
      () => "resolved",
      (error: unknown) => error,
    );
    expect(
      await sdk.client.callTool({ name: "echo", arguments: { message: "still here" } }),
    ).toEqual(text("still here"));
    expect(await sdk.client.ping()).toEqual({});
    controller.abort("user pressed stop");
    expect(await settled).toMatchObject({
      code: -32001,
      message: "MCP error -32001: user pressed stop",
    });
    expect(await sdk.client.callTool({ name: "abort_reason", arguments: { key: "sdk" } })).toEqual(
      text("user pressed stop"),
    );
    await sdk.stderr.waitFor(
      (all) => all.includes("hang sdk aborted: user pressed stop\n"),
      "the abort to reach the handler",
    );
  });
});

describe("cancellation on the wire", () => {
  let client: RawClient;

  beforeAll(async () => {
    // stdio's transport in this process: the handler tells of its abort through the fixture's report.
    ({ client } = await RawClient.initializedInProcess("2025-11-25", { elicitation: {} }));
  });
  afterAll(killRawClients);

  it("after notifications/cancelled no response is sent and ctx.signal is aborted", async () => {
    client.send({
      jsonrpc: "2.0",
      id: "h1",
      method: "tools/call",
      params: { name: "hang", arguments: { key: "raw-1" } },
    });
    expect(
      await client.result("tools/call", { name: "echo", arguments: { message: "x" } }),
    ).toEqual(text("x"));
    client.notify("notifications/cancelled", { requestId: "h1" });
    expect(
      await client.result("tools/call", { name: "abort_reason", arguments: { key: "raw-1" } }),
    ).toEqual(text("Cancelled by the client"));
    await client.waitForStderr("hang raw-1 aborted: Cancelled by the client\n");
    // The handler resolved ("finished after the abort") before abort_reason answered.
    expect(await client.result("ping")).toEqual({});
    expect(client.messages.items.filter((m) => m.id === "h1")).toEqual([]);
    expect(client.garbage).toEqual([]);
  });

  it("passes the client's reason to the handler", async () => {
    client.send({
      jsonrpc: "2.0",
      id: 77,
      method: "tools/call",
      params: { name: "hang", arguments: { key: "raw-2" } },
    });
    expect(await client.result("ping")).toEqual({});
    client.notify("notifications/cancelled", { requestId: 77, reason: "took too long" });
    expect(
      await client.result("tools/call", { name: "abort_reason", arguments: { key: "raw-2" } }),
    ).toEqual(text("took too long"));
    expect(await client.result("ping")).toEqual({});
    expect(client.messages.items.filter((m) => m.id === 77)).toEqual([]);
  });

  it("ignores a cancellation of a request that is not in flight", async () => {
    const before = client.messages.items.length;
    const done = await client.request("ping");
    client.notify("notifications/cancelled", { requestId: done.id, reason: "too late" });
    client.notify("notifications/cancelled", { requestId: "never-sent" });
    const echo = await client.request("tools/call", { name: "echo", arguments: { message: "ok" } });
    expect(echo.result).toEqual(text("ok"));
    // Only the two responses: a notification is never answered.
    expect(client.messages.items.slice(before)).toEqual([done, echo]);
  });

  it("the handler sees the client's answer over the wire", async () => {
    const call = client.request("tools/call", { name: "ask_name" });
    const elicitation = await client.waitForMethod("elicitation/create");
    expect(elicitation).toEqual({
      jsonrpc: "2.0",
      id: elicitation.id,
      method: "elicitation/create",
      params: {
        message: "What is your name?",
        requestedSchema: {
          type: "object",
          properties: { name: { type: "string", description: "Your name" } },
          required: ["name"],
        },
      },
    });
    expect(elicitation.id).toMatch(/^s-\d+$/);
    client.respond(elicitation.id, { action: "accept", content: { name: "Wire" } });
    expect((await call).result).toEqual(text("Hello, Wire"));
  });

  it("cancelling a call that waits on the client cancels the server's request too", async () => {
    const before = client.messages.items.length;
    client.send({ jsonrpc: "2.0", id: "ask", method: "tools/call", params: { name: "ask_name" } });
    const elicitation = await client.messages.waitFor(
      (m) => m.method === "elicitation/create",
      "a second elicitation/create",
      before,
    );
    client.notify("notifications/cancelled", { requestId: "ask", reason: "changed my mind" });
    expect(await client.waitForMethod("notifications/cancelled")).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: {
        requestId: elicitation.id,
        reason: "The request that asked for this was cancelled",
      },
    });
    // A late answer to the cancelled request is ignored, with a word on stderr.
    client.respond(elicitation.id, { action: "accept", content: { name: "late" } });
    await client.waitForStderr(
      `mcp-dir: ignored a response to an unknown request id "${elicitation.id}"\n`,
    );
    expect(await client.result("ping")).toEqual({});
    expect(client.messages.items.filter((m) => m.id === "ask")).toEqual([]);
  });
});
