/**
 * mcp-dir/testing runs a call as a task when asked (tasks: true, 2026-07-28 and 2025-11-25):
 * callTool follows the task to its end, telling each state to ontask and
 * answering what the task asks with the client's responders.
 */

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer, defineTool, type McpServer } from "../../src/index.js";
import {
  createTestClient,
  InputRequiredError,
  type TaskState,
  type TestClient,
} from "../../src/testing/index.js";

/** Opened by the test (once it sees the task working), so the ask comes from the running task. */
let openGate = () => {};
let gate = Promise.resolve();

const greets = defineTool({
  name: "greets",
  description: "Asks for a name while it runs as a task",
  task: "optional",
  handler: async (_args, ctx) => {
    await gate;
    const answer = await ctx.elicit({ message: "Name?", schema: { name: z.string() } });
    return answer.action === "accept" ? `Hello, ${answer.content.name}` : "nobody";
  },
});

const fails = defineTool({
  name: "fails",
  description: "Fails as a task",
  task: "required",
  handler: () => {
    throw new Error("the disk is full");
  },
});

const reports = defineTool({
  name: "reports",
  description: "Reports its progress and asks for a name while it runs as a task",
  task: "optional",
  handler: async (_args, ctx) => {
    await gate;
    await ctx.progress(1, 3, "looking up");
    const answer = await ctx.elicit({ message: "Name?", schema: { name: z.string() } });
    await ctx.progress(2, 3, "greeting");
    return answer.action === "accept" ? `Hello, ${answer.content.name}` : "nobody";
  },
});

/** Why the task of `waits` was stopped, once it was. */
let stopped: Promise<unknown> = Promise.resolve();

const waits = defineTool({
  name: "waits",
  description: "Works until its task is cancelled",
  task: "optional",
  handler: async (_args, ctx) => {
    await ctx.progress(1, 2, "waiting");
    stopped = new Promise((resolve) => {
      ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason), { once: true });
    });
    await stopped;
    return "stopped";
  },
});

let server: McpServer;
const clients: TestClient[] = [];

beforeAll(() => {
  server = createServer({ name: "tasks-test", version: "1.0.0" });
  server.add(greets, fails, waits, reports);
});
beforeEach(() => {
  gate = new Promise((resolve) => {
    openGate = resolve;
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(() => server.close());

async function connect(options: Parameters<typeof createTestClient>[1]) {
  const client = await createTestClient(server, options);
  clients.push(client);
  return client;
}

/** Calls `name`, opening its gate once its task is working: the result, and each state told. */
async function callOpeningGate(client: TestClient, name = "greets") {
  const states: TaskState[] = [];
  const result = await client.callTool(
    { name },
    {
      ontask: (task) => {
        states.push(task);
        if (task.status === "working") openGate();
      },
    },
  );
  return { result, states };
}

describe("a call run as a task", () => {
  it("is followed to its end, each state told, what it asks answered by the responders", async () => {
    const client = await connect({
      tasks: true,
      elicitation: { action: "accept", content: { name: "Ada" } },
    });
    const { result, states } = await callOpeningGate(client);
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada" }]);
    const statuses = states.map((task) => task.status);
    expect(statuses.at(-1)).toBe("completed");
    expect(statuses).toContain("input_required");
    expect(new Set(states.map((task) => task.taskId)).size).toBe(1);
  });

  it("is cancelled when the call's signal aborts: the task ends cancelled, and the call rejects with the reason", async () => {
    const client = await connect({ tasks: true });
    const states: TaskState[] = [];
    const stop = new AbortController();
    const called = client.callTool(
      { name: "waits" },
      {
        signal: stop.signal,
        ontask: (task) => {
          states.push(task);
          if (task.statusMessage === "waiting") stop.abort(new Error("the test gave up"));
        },
      },
    );
    await expect(called).rejects.toThrow("the test gave up");
    expect(await stopped).toMatchObject({ name: "AbortError" });
    const [task] = states;
    const { taskId } = task as TaskState;
    expect(await client.request("tasks/get", { taskId })).toMatchObject({
      taskId,
      status: "cancelled",
    });
  });

  it("rejects when the client closes while it runs, as a call does", async () => {
    const client = await connect({ tasks: true });
    let working = () => {};
    const seen = new Promise<void>((resolve) => {
      working = resolve;
    });
    const called = client.callTool(
      { name: "waits" },
      { ontask: (task) => task.statusMessage === "waiting" && working() },
    );
    await seen;
    await client.close();
    await expect(called).rejects.toThrow("The client closed before the server answered");
  });

  it("is a plain call when the client does not declare tasks", async () => {
    const client = await connect({ elicitation: { action: "accept", content: { name: "Bo" } } });
    const states: TaskState[] = [];
    const called = client.callTool({ name: "greets" }, { ontask: (task) => states.push(task) });
    openGate();
    const result = await called;
    expect(result.content).toEqual([{ type: "text", text: "Hello, Bo" }]);
    expect(states).toEqual([]);
  });

  it("ends with the tool's error result when the handler throws", async () => {
    const client = await connect({ tasks: true });
    expect(await client.callTool({ name: "fails" })).toEqual({
      content: [{ type: "text", text: "the disk is full" }],
      isError: true,
    });
  });

  it("rejects with what it asked when no responder answers it, and cancels the task", async () => {
    const client = await connect({ tasks: true, capabilities: { elicitation: {} } });
    const states: TaskState[] = [];
    const asked = client.callTool(
      { name: "greets" },
      {
        ontask: (task) => {
          states.push(task);
          if (task.status === "working") openGate();
        },
      },
    );
    await expect(asked).rejects.toBeInstanceOf(InputRequiredError);
    await expect(asked).rejects.toMatchObject({
      requests: { "elicitation-1": { method: "elicitation/create" } },
    });
    // Nothing will answer it: left waiting, its handler would hold on until the task expires.
    const { taskId } = states[0] as TaskState;
    expect(await client.request("tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
  });

  it("is refused to a client without the extension when the tool runs only as a task", async () => {
    const client = await connect({});
    await expect(client.callTool({ name: "fails" })).rejects.toThrow(
      'Tool "fails" runs only as a task, and the client did not declare the "io.modelcontextprotocol/tasks" extension; declare it in the request\'s client capabilities (extensions) (JSON-RPC error -32021)',
    );
  });
});

describe.each(["2026-07-28", "2025-11-25"] as const)(
  "a call run as a task at %s",
  (protocolVersion) => {
    it("tells each state as the task goes through it: its status messages, what it asks, its end", async () => {
      const client = await connect({
        protocolVersion,
        tasks: true,
        elicitation: { action: "accept", content: { name: "Ada" } },
      });
      const { result, states } = await callOpeningGate(client, "reports");
      expect(result.content).toEqual([{ type: "text", text: "Hello, Ada" }]);
      // Each revision's task has these two; only 2026-07-28's holds what it asks, too.
      expect(
        states.map(({ status, statusMessage }) => ({
          status,
          ...(statusMessage !== undefined && { statusMessage }),
        })),
      ).toEqual([
        { status: "working" },
        { status: "working", statusMessage: "looking up" },
        { status: "input_required", statusMessage: "looking up" },
        { status: "working", statusMessage: "looking up" },
        { status: "working", statusMessage: "greeting" },
        { status: "completed" },
      ]);
      expect(new Set(states.map((task) => task.taskId)).size).toBe(1);
    });
  },
);

describe("a call run as a task at 2025-11-25", () => {
  const protocolVersion = "2025-11-25";

  it("is followed to its end, what it asks answered by the responders, as on 2026-07-28", async () => {
    const client = await connect({
      protocolVersion,
      tasks: true,
      elicitation: { action: "accept", content: { name: "Ada" } },
    });
    const { result, states } = await callOpeningGate(client);
    expect(result).toEqual({ content: [{ type: "text", text: "Hello, Ada" }] });
    expect(states.map((task) => task.status)).toEqual([
      "working",
      "input_required",
      "working",
      "completed",
    ]);
    expect(states.at(-1)?.result).toEqual(result);
    expect(states.at(-1)).toMatchObject({ taskId: states[0]?.taskId, ttlMs: expect.any(Number) });
  });

  it("rejects with what it asked when no responder answers it, and cancels the task, as on 2026-07-28", async () => {
    const client = await connect({
      protocolVersion,
      tasks: true,
      capabilities: { elicitation: {} },
    });
    const states: TaskState[] = [];
    const asked = client.callTool(
      { name: "greets" },
      {
        ontask: (task) => {
          states.push(task);
          if (task.status === "working") openGate();
        },
      },
    );
    const refused = await asked.catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InputRequiredError);
    expect(Object.values((refused as InputRequiredError).requests)).toMatchObject([
      { method: "elicitation/create" },
    ]);
    const { taskId } = states[0] as TaskState;
    expect(await client.request("tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
  });

  it("calls a tool that runs only as a task, ending with its error result", async () => {
    const client = await connect({ protocolVersion, tasks: true });
    expect(await client.callTool({ name: "fails" })).toEqual({
      content: [{ type: "text", text: "the disk is full" }],
      isError: true,
    });
  });

  it("is cancelled when the call's signal aborts, and the call rejects with the reason", async () => {
    const client = await connect({ protocolVersion, tasks: true });
    const stop = new AbortController();
    const states: TaskState[] = [];
    const called = client.callTool(
      { name: "waits" },
      {
        signal: stop.signal,
        ontask: (task) => {
          states.push(task);
          stop.abort(new Error("the test gave up"));
        },
      },
    );
    await expect(called).rejects.toThrow("the test gave up");
    expect(await stopped).toMatchObject({ name: "AbortError" });
    const { taskId } = states[0] as TaskState;
    expect(await client.request("tasks/get", { taskId })).toMatchObject({
      taskId,
      status: "cancelled",
    });
  });

  it("rejects when the client closes while it runs, as a call does", async () => {
    const client = await connect({ protocolVersion, tasks: true });
    let working = () => {};
    const seen = new Promise<void>((resolve) => {
      working = resolve;
    });
    const called = client.callTool({ name: "waits" }, { ontask: () => working() });
    await seen;
    await client.close();
    await expect(called).rejects.toThrow("The client closed before the server answered");
  });

  it("rejects as on 2026-07-28 when the task is cancelled by another request", async () => {
    const client = await connect({ protocolVersion, tasks: true });
    let taskId = "";
    const called = client.callTool(
      { name: "waits" },
      {
        ontask: (task) => {
          if (task.status !== "working") return;
          taskId = task.taskId;
          void client.request("tasks/cancel", { taskId });
        },
      },
    );
    const error = await called.catch((reason: Error) => reason);
    expect(error).toEqual(new Error(`The task ${taskId} was cancelled`));
  });

  it("calls a tool that never runs as a task plainly", async () => {
    const plain = defineTool({ name: "plain", description: "No task", handler: () => "plain" });
    const own = createServer({ name: "plain", version: "1.0.0" }).add(plain, fails);
    const client = await createTestClient(own, { protocolVersion, tasks: true });
    try {
      const states: TaskState[] = [];
      const result = await client.callTool({ name: "plain" }, { ontask: (t) => states.push(t) });
      expect(result).toEqual({ content: [{ type: "text", text: "plain" }] });
      expect(states).toEqual([]);
    } finally {
      await client.close();
      await own.close();
    }
  });
});
