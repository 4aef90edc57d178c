/**
 * The tasks extension (2026-07-28, SEP-2663) on the wire, over stdio and HTTP
 * to the real CLI: no official client speaks it yet, so these requests are
 * raw, and what comes back is asserted as sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerHere, startCliHere, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { type Json, killRawClients } from "../server/helpers/raw-client.js";
import { TASK_SERVER } from "./helpers/task-server.js";
import { httpTaskWire, TASKS, type TaskWire, taskWire } from "./helpers/task-wire.js";

const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "tasks", version: "1.0.0" } };
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const TASK_ID = expect.stringMatching(
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
);
const ACK = { resultType: "complete", _meta: SERVER_INFO };
const MISSING_EXTENSION = {
  code: -32021,
  data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
};

let dir: string;
let served: Promise<ServerHere> | undefined;
/** `serve --http` of the directory, started once: the HTTP row and the header case reach it alike. */
const httpServer = () => {
  served ??= startCliHere(["serve", dir, "--http", "--port", "0"]);
  return served;
};

beforeAll(async () => {
  dir = await createServerDir(TASK_SERVER);
});
afterAll(async () => {
  await killRawClients();
  await stopAll();
  await removeServerDirs();
});

describe.each(["stdio", "http"] as const)("tasks over %s", (transport) => {
  let wire: TaskWire;
  beforeAll(async () => {
    wire =
      transport === "http"
        ? httpTaskWire((await httpServer()).url)
        : await taskWire(transport, dir);
  });

  const call = async (name: string, args: Json = {}) => {
    const { result } = await wire.request("tools/call", { name, arguments: args });
    return result;
  };

  it("advertises the extension in server/discover", async () => {
    const { result } = await wire.request("server/discover", {});
    expect(result.capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(result.capabilities.tasks).toBeUndefined();
  });

  it("answers a call with a task, then shows it working, then completed with its result", async () => {
    const created = await call("gated", { key: "run-1" });
    expect(created).toEqual({
      resultType: "task",
      taskId: TASK_ID,
      status: "working",
      statusMessage: "waiting for run-1",
      createdAt: ISO,
      lastUpdatedAt: ISO,
      ttlMs: 3_600_000,
      pollIntervalMs: 1000,
      _meta: SERVER_INFO,
    });
    const { taskId } = created;
    const working = await wire.request("tasks/get", { taskId });
    expect(working.result).toEqual({ ...created, resultType: "complete" });
    await call("open", { key: "run-1", value: "yes" });
    const done = await wire.until(taskId, "completed");
    expect(done).toEqual({
      taskId,
      status: "completed",
      createdAt: created.createdAt,
      lastUpdatedAt: ISO,
      ttlMs: 3_600_000,
      pollIntervalMs: 1000,
      result: { content: [{ type: "text", text: "opened with yes" }] },
    });
    const read = await wire.request("tasks/get", { taskId });
    expect(read.result).toEqual({ ...done, resultType: "complete", _meta: SERVER_INFO });
  });

  it("calls the same tool plainly for a client that did not declare the extension", async () => {
    await call("open", { key: "plain-1", value: "at once" });
    const { result } = await wire.request(
      "tools/call",
      { name: "gated", arguments: { key: "plain-1" } },
      {},
    );
    expect(result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "opened with at once" }],
      _meta: SERVER_INFO,
    });
  });

  it("refuses a tool that runs only as a task to a client without the extension", async () => {
    const { error } = await wire.request(
      "tools/call",
      { name: "ask-first", arguments: { key: "never" } },
      { elicitation: {} },
    );
    expect(error).toEqual({
      ...MISSING_EXTENSION,
      message: `Tool "ask-first" runs only as a task, and the client did not declare the "${TASKS}" extension; declare it in the request's client capabilities (extensions)`,
    });
  });

  it.each([
    ["tasks/get", {}],
    ["tasks/update", { inputResponses: {} }],
    ["tasks/cancel", {}],
  ])("refuses %s to a client without the extension", async (method, params) => {
    const { error } = await wire.request(method, { taskId: "any", ...params }, {});
    expect(error).toEqual({
      ...MISSING_EXTENSION,
      message: `${method} is a method of the tasks extension, and the client did not declare the "${TASKS}" extension; declare it in the request's client capabilities (extensions)`,
    });
  });

  it.each(["tasks/get", "tasks/cancel"])(
    "answers %s for an unknown task with -32602",
    async (method) => {
      const { error } = await wire.request(method, { taskId: "no-such-task" });
      expect(error).toEqual({
        code: -32602,
        message: `${method}: there is no task "no-such-task" for this client: it never existed, it expired (tasks are kept for their ttlMs), or another client created it`,
      });
    },
  );

  it("has no tasks/result or tasks/list: those were 2025-11-25's", async () => {
    for (const method of ["tasks/result", "tasks/list"]) {
      const { error } = await wire.request(method, { taskId: "any" });
      expect(error).toEqual({ code: -32601, message: `Method not found: ${method}` });
    }
  });

  it("puts a task that asks while working in input_required until tasks/update answers", async () => {
    const { taskId } = await call("confirm", { key: "ask-1" });
    await call("open", { key: "ask-1" });
    const asking = await wire.until(taskId, "input_required");
    expect(asking.inputRequests).toEqual({
      "elicitation-1": {
        method: "elicitation/create",
        params: {
          message: "Go on?",
          requestedSchema: {
            type: "object",
            properties: { ok: { type: "boolean" } },
            required: ["ok"],
          },
        },
      },
    });
    const ack = await wire.request("tasks/update", {
      taskId,
      inputResponses: {
        "elicitation-1": { action: "accept", content: { ok: true } },
        "never-asked": { action: "accept", content: {} },
      },
    });
    expect(ack.result).toEqual(ACK);
    const done = await wire.until(taskId, "completed");
    expect(done.result).toEqual({ content: [{ type: "text", text: "went on" }] });
  });

  it("refuses tasks/update without inputResponses", async () => {
    const { taskId } = await call("confirm", { key: "ask-2" });
    const { error } = await wire.request("tasks/update", { taskId });
    expect(error).toEqual({ code: -32602, message: 'tasks/update: "inputResponses" is required' });
    await wire.request("tasks/cancel", { taskId });
  });

  it("gathers what a handler asks before its first wait by multi-round-trip, then creates the task", async () => {
    const round = await call("ask-first", { key: "first-1" });
    expect(round).toMatchObject({
      resultType: "input_required",
      inputRequests: { name: { method: "elicitation/create" } },
    });
    expect(round.taskId).toBeUndefined();
    const { result } = await wire.request("tools/call", {
      name: "ask-first",
      arguments: { key: "first-1" },
      requestState: round.requestState,
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
    });
    expect(result).toMatchObject({ resultType: "task", status: "working" });
    expect(result.requestState).toBeUndefined();
    await call("open", { key: "first-1" });
    const done = await wire.until(result.taskId, "completed");
    expect(done.result).toEqual({ content: [{ type: "text", text: "Hello, Ada" }] });
  });

  it("cancels a working task: its signal aborts, and cancelling again is acknowledged alike", async () => {
    const { taskId } = await call("forever", { key: "cancel-1" });
    const ack = await wire.request("tasks/cancel", { taskId });
    expect(ack.result).toEqual(ACK);
    const { result } = await wire.request("tasks/get", { taskId });
    expect(result).toMatchObject({
      status: "cancelled",
      statusMessage: "The client cancelled the task",
    });
    const reason = await call("abort-reason", { key: "cancel-1" });
    expect(reason.content).toEqual([{ type: "text", text: "The client cancelled the task" }]);
    const again = await wire.request("tasks/cancel", { taskId });
    expect(again.result).toEqual(ACK);
  });

  it("completes a task whose tool threw (isError), and fails one that ends in a protocol error", async () => {
    const thrown = await call("boom");
    const completed = await wire.until(thrown.taskId, "completed");
    expect(completed.result).toEqual({ content: [{ type: "text", text: "boom" }], isError: true });
    const unsendable = await call("unsendable");
    const failed = await wire.until(unsendable.taskId, "failed");
    const message =
      'tools/call of "unsendable" returned a result that cannot be sent as JSON: Do not know how to serialize a BigInt; return plain JSON values (no BigInt, no cycles)';
    expect(failed).toMatchObject({ error: { code: -32603, message }, statusMessage: message });
    expect(failed.result).toBeUndefined();
  });

  it("refuses a listen stream that follows tasks without the extension, or names them wrong", async () => {
    const undeclared = await wire.request(
      "subscriptions/listen",
      { notifications: { taskIds: ["any"] } },
      {},
    );
    expect(undeclared.error).toEqual({
      ...MISSING_EXTENSION,
      message: `subscriptions/listen: notifications.taskIds follows tasks, and the client did not declare the "${TASKS}" extension; declare it in the request's client capabilities (extensions)`,
    });
    const malformed = await wire.request("subscriptions/listen", {
      notifications: { taskIds: "any" },
    });
    expect(malformed.error).toEqual({
      code: -32602,
      message: "subscriptions/listen: notifications.taskIds must be an array of task ids",
    });
  });

  it("follows on a listen stream only the tasks it can reach", async () => {
    const { taskId } = await call("forever", { key: "listen-1" });
    const stream = await wire.listen([taskId, "no-such-task"]);
    expect(stream.acknowledged.params.notifications).toEqual({ taskIds: [taskId] });
    await wire.request("tasks/cancel", { taskId });
    const told = await stream.waitFor((message) => message.params.taskId === taskId, "its change");
    expect(told.params).toMatchObject({ taskId, status: "cancelled" });
  });
});

describe("tasks over HTTP headers", () => {
  it("refuses a tasks/get whose Mcp-Name is not its taskId", async () => {
    const { url } = await httpServer();
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tasks/get",
        "mcp-name": "another-task",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tasks/get",
        params: {
          taskId: "this-task",
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
          },
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32020,
        message:
          'Header mismatch: the Mcp-Name header "another-task" does not match the body\'s value "this-task"',
      },
    });
  });
});
