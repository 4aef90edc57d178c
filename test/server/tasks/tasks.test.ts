/**
 * Tasks in one process, through `server.serveRequest` (2026-07-28): who may
 * reach a task, how long it is kept, how many are, and a store shared by two
 * servers standing in for replicas.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, type McpServer, type ServerOptions } from "../../../src/index.js";
import { InProcessTaskStore } from "../../../src/server/tasks/in-process-task-store.js";
import type { Json } from "../helpers/raw-client.js";
import { aborted, asks, gates, resetTaskTools, send, waits } from "../helpers/task-tools.js";

const servers: McpServer[] = [];
function server(options: Partial<ServerOptions> = {}): McpServer {
  const made = createServer({ name: "tasks", version: "1", ...options }).add(waits, asks);
  servers.push(made);
  return made;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  resetTaskTools();
});

const notFound = (method: string, taskId: string) => ({
  code: -32602,
  message: `${method}: there is no task "${taskId}" for this client: it never existed, it expired (tasks are kept for their ttlMs), or another client created it`,
});

describe("a task's principal", () => {
  it("is the only one that reaches it", async () => {
    const s = server();
    const { result } = await send(
      s,
      "tools/call",
      { name: "waits", arguments: { key: "p" } },
      "alice",
    );
    const { taskId } = result;
    expect((await send(s, "tasks/get", { taskId }, "alice")).result.status).toBe("working");
    for (const method of ["tasks/get", "tasks/cancel"]) {
      expect((await send(s, method, { taskId }, "bob")).error).toEqual(notFound(method, taskId));
      expect((await send(s, method, { taskId })).error).toEqual(notFound(method, taskId));
    }
    const update = await send(s, "tasks/update", { taskId, inputResponses: {} }, "mallory");
    expect(update.error).toEqual(notFound("tasks/update", taskId));
  });

  it("is nobody when the request had none: the unguessable id is the key", async () => {
    const s = server();
    const { result } = await send(s, "tools/call", { name: "waits", arguments: { key: "q" } });
    expect((await send(s, "tasks/get", { taskId: result.taskId })).result.status).toBe("working");
    expect((await send(s, "tasks/get", { taskId: result.taskId }, "alice")).result.status).toBe(
      "working",
    );
  });
});

describe("the tasks a server keeps", () => {
  it("are at most maxTasks: one more call is refused with why", async () => {
    const s = server({ tasks: { maxTasks: 1 } });
    await send(s, "tools/call", { name: "waits", arguments: { key: "one" } });
    const refused = await send(s, "tools/call", { name: "waits", arguments: { key: "two" } });
    expect(refused.error).toEqual({
      code: -32000,
      message:
        "The server keeps 1 tasks at most (tasks.maxTasks), and has that many: try again once one has expired (each is kept for its ttlMs), or raise tasks.maxTasks in mcp-dir.config.ts or createServer",
    });
    expect(aborted).toEqual(["two: The server had no room for the task"]);
  });

  it("go when their time to live passes, a run still going stopped", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const s = server({ tasks: { ttlMs: 5000 } });
    const { result } = await send(s, "tools/call", { name: "waits", arguments: { key: "ttl" } });
    expect(result.ttlMs).toBe(5000);
    vi.advanceTimersByTime(5000);
    expect(aborted).toEqual(["ttl: The task's time to live passed before it finished"]);
    const gone = await send(s, "tasks/get", { taskId: result.taskId });
    expect(gone.error).toEqual(notFound("tasks/get", result.taskId));
  });

  it("refuses settings it cannot honour, by name", () => {
    expect(() => server({ tasks: { ttlMs: 0 } })).toThrow(
      "tasks.ttlMs must be a whole number of milliseconds from 1 to 2147483647, got 0",
    );
    expect(() => server({ tasks: { maxTasks: 1.5 } })).toThrow(
      "tasks.maxTasks must be a positive whole number, got 1.5",
    );
  });
});

describe("a store two servers share (replicas)", () => {
  it("lets one read, answer and cancel the tasks the other runs", async () => {
    const store = new InProcessTaskStore(10);
    const [a, b] = [server({ tasks: { store } }), server({ tasks: { store } })];
    const asked = await send(a, "tools/call", { name: "asks", arguments: { key: "shared" } });
    gates.get("shared")?.();
    const { taskId } = asked.result;
    // The answer reaches A's run through the store, so the read waits for no one.
    const pending = await new Promise<Json>((resolve) => {
      const stop = store.subscribe((id, task) => {
        if (id === taskId && task?.status === "input_required") {
          stop();
          resolve(task);
        }
      });
    });
    const [key] = Object.keys(pending.inputRequests);
    const done = new Promise<Json>((resolve) => {
      const stop = store.subscribe((id, task) => {
        if (id === taskId && task?.status === "completed") {
          stop();
          resolve(task);
        }
      });
    });
    await send(b, "tasks/update", {
      taskId,
      inputResponses: { [key as string]: { action: "accept", content: { name: "Ada" } } },
    });
    expect((await done).result).toEqual({ content: [{ type: "text", text: "Hello, Ada" }] });

    const waiting = await send(a, "tools/call", { name: "waits", arguments: { key: "far" } });
    await send(b, "tasks/cancel", { taskId: waiting.result.taskId });
    expect(aborted).toEqual(["far: The client cancelled the task"]);
  });

  it("leaves the task of a server that stops failed, saying so", async () => {
    const store = new InProcessTaskStore(10);
    const [a, b] = [server({ tasks: { store } }), server({ tasks: { store } })];
    const { result } = await send(a, "tools/call", { name: "waits", arguments: { key: "stop" } });
    await a.close();
    const read = await send(b, "tasks/get", { taskId: result.taskId });
    expect(read.result).toMatchObject({
      status: "failed",
      statusMessage: "The server stopped before the task finished",
      error: { code: -32603, message: "The server stopped before the task finished" },
    });
  });
});
