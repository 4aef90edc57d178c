/**
 * Tasks through the official clients, over stdio and HTTP to the real CLI:
 * the v1 SDK client, which speaks 2025-11-25's experimental tasks
 * (`client.experimental.tasks`), and the v2 client at 2026-07-28, which has
 * no tasks yet and so declares no extension: it gets plain calls, and a
 * refusal for a tool that runs only as a task.
 */
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { closeClients, connectClient, serveOnce, type Target } from "./helpers/clients.js";
import { TASK_SERVER } from "./helpers/task-server.js";

type Message = Awaited<
  ReturnType<ReturnType<Client["experimental"]["tasks"]["callToolStream"]>["next"]>
>["value"];

/** Every case runs tasks of keys of its own: one HTTP server of the directory serves the file. */
const serve = serveOnce();

let dir: string;
beforeAll(async () => {
  dir = await createServerDir(TASK_SERVER);
});
afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})));
  await closeClients();
});

/** A v1 client at 2025-11-25 that answers elicitations with `ok: true` and records them; closed after the case. */
async function connectV1(target: Target, asked: unknown[] = []): Promise<Client> {
  const client = await openV1(target, asked);
  open.push(client);
  return client;
}

/** connectV1's client, left for the caller to close. */
async function openV1(target: Target, asked: unknown[]): Promise<Client> {
  const client = new Client(
    { name: "tasks-v1", version: "1.0.0" },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: "accept", content: { ok: true } };
  });
  await client.connect(
    "url" in target
      ? new StreamableHTTPClientTransport(new URL(target.url))
      : new StdioClientTransport({
          command: process.execPath,
          args: [CLI, ...target.stdio],
          cwd: REPO_ROOT,
          stderr: "ignore",
        }),
  );
  await client.listTools();
  return client;
}

/** Runs a tool as a task to its end, calling `started` once the task exists. */
async function runTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  started: (taskId: string) => Promise<unknown> = async () => {},
): Promise<Message[]> {
  const messages: Message[] = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args })) {
    messages.push(message);
    if (message.type === "taskCreated") await started(message.task.taskId);
  }
  return messages;
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
  );

describe.each(["stdio", "http"] as const)("2025-11-25 tasks over %s (v1 client)", (transport) => {
  /** What the server asked the row's client, since the case that looks cleared it. */
  const asked: unknown[] = [];
  let client: Client;
  beforeAll(async () => {
    // One client (over stdio, one process) for the row: each case runs tasks of keys of its own.
    client = await openV1(await serve(transport, dir), asked);
  });
  afterAll(() => client.close());

  it("offers tasks for tools/call, and says which tools may or must run as one", async () => {
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution]));
    expect(support).toMatchObject({
      gated: { taskSupport: "optional" },
      "ask-first": { taskSupport: "required" },
      plain: undefined,
    });
  });

  it("creates a task, polls it and gets its result", async () => {
    const messages = await runTask(client, "gated", { key: `v1-run-${transport}` }, () =>
      client.callTool({ name: "open", arguments: { key: `v1-run-${transport}`, value: "v1" } }),
    );
    expect(messages[0]).toMatchObject({ type: "taskCreated", task: { status: "working" } });
    const last = messages.at(-1);
    expect(last).toEqual({
      type: "result",
      result: {
        content: [{ type: "text", text: "opened with v1" }],
        _meta: {
          "io.modelcontextprotocol/related-task": {
            taskId: messages[0]?.type === "taskCreated" && messages[0].task.taskId,
          },
        },
      },
    });
  });

  it("asks the client for input from the task, the request related to it", async () => {
    asked.length = 0;
    const key = `v1-ask-${transport}`;
    let taskId = "";
    const messages = await runTask(client, "confirm", { key }, async (id) => {
      taskId = id;
      await client.callTool({ name: "open", arguments: { key } });
    });
    expect(messages.at(-1)).toMatchObject({
      type: "result",
      result: { content: [{ type: "text", text: "went on" }] },
    });
    expect(asked).toEqual([
      {
        message: "Go on?",
        requestedSchema: {
          type: "object",
          properties: { ok: { type: "boolean" } },
          required: ["ok"],
        },
        _meta: { "io.modelcontextprotocol/related-task": { taskId } },
      },
    ]);
  });

  it("cancels a task, whose signal aborts; a task that has ended cannot be cancelled", async () => {
    const key = `v1-cancel-${transport}`;
    const messages = await runTask(client, "forever", { key }, async (taskId) => {
      const cancelled = await client.experimental.tasks.cancelTask(taskId);
      expect(cancelled).toMatchObject({ taskId, status: "cancelled" });
    });
    expect(messages.at(-1)).toMatchObject({ type: "error" });
    const reason = await client.callTool({ name: "abort-reason", arguments: { key } });
    expect(reason.content).toEqual([{ type: "text", text: "The client cancelled the task" }]);
    const created = messages[0];
    if (created?.type !== "taskCreated") throw new Error("no task was created");
    const { taskId } = created.task;
    expect(await refusal(client.experimental.tasks.cancelTask(taskId))).toEqual({
      code: -32602,
      message: `MCP error -32602: tasks/cancel: cannot cancel task "${taskId}": it has already ended (cancelled)`,
    });
  });

  it("reports a tool's error as a failed task, and tasks/result returns it", async () => {
    const messages = await runTask(client, "boom", {});
    const created = messages[0];
    if (created?.type !== "taskCreated") throw new Error("no task was created");
    const { taskId } = created.task;
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: "failed" });
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result).toMatchObject({ content: [{ type: "text", text: "boom" }], isError: true });
  });

  it("answers tasks/result of a protocol error with that error", async () => {
    const messages = await runTask(client, "unsendable", {});
    const created = messages[0];
    if (created?.type !== "taskCreated") throw new Error("no task was created");
    const { taskId } = created.task;
    expect(
      await refusal(client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)),
    ).toEqual({
      code: -32603,
      message:
        'MCP error -32603: tools/call of "unsendable" returned a result that cannot be sent as JSON: Do not know how to serialize a BigInt; return plain JSON values (no BigInt, no cycles)',
    });
  });

  it("refuses a call without a task to a tool that runs only as one", async () => {
    const call = client.request(
      { method: "tools/call", params: { name: "ask-first", arguments: { key: "x" } } },
      CallToolResultSchema,
    );
    expect(await refusal(call)).toEqual({
      code: -32601,
      message:
        'MCP error -32601: Tool "ask-first" runs only as a task: call it with a "task" param (tools/call params.task, e.g. {})',
    });
  });

  it("refuses a task of a tool that never runs as one", async () => {
    const call = client.request(
      { method: "tools/call", params: { name: "plain", arguments: {}, task: {} } },
      CallToolResultSchema,
    );
    expect(await refusal(call)).toEqual({
      code: -32601,
      message:
        'MCP error -32601: Tool "plain" does not run as a task: call it without the "task" param',
    });
  });
});

describe("2025-11-25 tasks belong to their session", () => {
  it("are cancelled when it ends, as no one else can reach them", async () => {
    const target = await serve("http", dir);
    if (!("url" in target)) throw new Error("an HTTP target was asked for");
    const other = await connectV1(target);
    const owner = new Client({ name: "tasks-v1", version: "1.0.0" }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(target.url));
    await owner.connect(transport);
    await owner.listTools();
    const key = "v1-orphan";
    const stream = owner.experimental.tasks.callToolStream({ name: "forever", arguments: { key } });
    const created = await stream.next();
    expect(created.value).toMatchObject({ type: "taskCreated" });
    // The client ends its session (DELETE), as a client that is done does.
    await transport.terminateSession();
    await owner.close();
    const reason = await other.callTool({ name: "abort-reason", arguments: { key } });
    expect(reason.content).toEqual([
      { type: "text", text: "The session that created the task ended" },
    ]);
  });

  it("lets no other session read, list or cancel them", async () => {
    const target = await serve("http", dir);
    const [owner, other] = await Promise.all([connectV1(target), connectV1(target)]);
    const key = "v1-owned";
    let taskId = "";
    const run = runTask(owner, "gated", { key }, async (id) => {
      taskId = id;
      const notFound = (method: string) => ({
        code: -32602,
        message: `MCP error -32602: ${method}: there is no task "${id}" for this client: it never existed, it expired (tasks are kept for their ttlMs), or another client created it`,
      });
      expect(await refusal(other.experimental.tasks.getTask(id))).toEqual(notFound("tasks/get"));
      expect(await refusal(other.experimental.tasks.cancelTask(id))).toEqual(
        notFound("tasks/cancel"),
      );
      expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
      await owner.callTool({ name: "open", arguments: { key } });
    });
    await run;
    const listed = await owner.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
  });
});

describe.each(["stdio", "http"] as const)(
  "2026-07-28 over %s (v2 client, no tasks)",
  (transport) => {
    it("calls a task tool plainly, and is refused one that runs only as a task", async () => {
      const target = await serve(transport, dir);
      const client = await connectClient("v2 pinned to 2026-07-28", target, {
        capabilities: { elicitation: {} },
      });
      const v2 = client.v2 as ClientV2;
      await v2.callTool({ name: "open", arguments: { key: `v2-${transport}`, value: "v2" } });
      const plain = await v2.callTool({ name: "gated", arguments: { key: `v2-${transport}` } });
      expect(plain.content).toEqual([{ type: "text", text: "opened with v2" }]);
      const refused = await v2.callTool({ name: "ask-first", arguments: { key: "x" } }).then(
        () => undefined,
        (error: { code?: number }) => error.code,
      );
      expect(refused).toBe(-32021);
    });
  },
);
