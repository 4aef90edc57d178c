/**
 * Tasks kept in a real redis-server by two servers in one process, standing
 * in for replicas (the CLI's own replicas are in test/replicas/): what one
 * runs, the other reads, answers and cancels; the limits hold for both
 * together; expiries are told; and Redis out of reach is a clear error.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServer, type McpServer, type ServerOptions } from "../../../src/index.js";
import type { RedisTaskStore } from "../../../src/server/replicas/redis-task-store.js";
import type { StoredTask } from "../../../src/server/tasks/task-store.js";
import { type RedisServer, startRedis, stopAllRedis } from "../../helpers/redis-server.js";
import { Inbox } from "../helpers/inbox.js";
import type { Json } from "../helpers/raw-client.js";
import { aborted, asks, gates, resetTaskTools, send, told, waits } from "../helpers/task-tools.js";

let redis: RedisServer;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(stopAllRedis);

const servers: McpServer[] = [];
/** A replica; those of one test share a prefix, so tests do not see each other's tasks. */
async function replicas(count: number, options: Partial<ServerOptions> = {}): Promise<McpServer[]> {
  const prefix = `test-${++prefixes}:`;
  const made = Array.from({ length: count }, () =>
    createServer({
      name: "tasks",
      version: "1",
      redis: { url: redis.url, prefix },
      ...options,
    }).add(waits, asks),
  );
  servers.push(...made);
  await Promise.all(made.map((server) => server.ready()));
  return made;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  resetTaskTools();
});

describe("tasks in Redis", () => {
  it("are read, answered and cancelled through one replica while another runs them", async () => {
    const [a, b] = (await replicas(2)) as [McpServer, McpServer];
    const asked = await send(a, "tools/call", { name: "asks", arguments: { key: "shared" } });
    const { taskId } = asked.result;
    // B follows the tasks it has read: it is told of their changes from then on.
    await send(b, "tasks/get", { taskId });
    const waiting = told(b, taskId, "input_required");
    gates.get("shared")?.();
    const pending = (await waiting) as StoredTask;
    expect((await send(b, "tasks/get", { taskId })).result.status).toBe("input_required");
    const [key] = Object.keys(pending.inputRequests ?? {});
    const completed = told(b, taskId, "completed");
    await send(b, "tasks/update", {
      taskId,
      inputResponses: { [key as string]: { action: "accept", content: { name: "Ada" } } },
    });
    expect((await completed)?.result).toEqual({ content: [{ type: "text", text: "Hello, Ada" }] });
    expect((await send(b, "tasks/get", { taskId })).result.result).toEqual({
      content: [{ type: "text", text: "Hello, Ada" }],
    });

    const far = await send(a, "tools/call", { name: "waits", arguments: { key: "far" } });
    const cancelledOnA = told(a, far.result.taskId, "cancelled");
    await send(b, "tasks/cancel", { taskId: far.result.taskId });
    await cancelledOnA;
    expect(aborted).toEqual(["far: The client cancelled the task"]);
    expect((await send(a, "tasks/get", { taskId: far.result.taskId })).result.status).toBe(
      "cancelled",
    );
  });

  it("are at most maxTasks for every replica together", async () => {
    const [a, b] = (await replicas(2, { tasks: { maxTasks: 1 } })) as [McpServer, McpServer];
    await send(a, "tools/call", { name: "waits", arguments: { key: "one" } });
    const refused = await send(b, "tools/call", { name: "waits", arguments: { key: "two" } });
    expect(refused.error).toEqual({
      code: -32000,
      message:
        "The server keeps 1 tasks at most (tasks.maxTasks), for all its replicas together, and has that many: try again once one has expired (each is kept for its ttlMs), or raise tasks.maxTasks in mcp-dir.config.ts or createServer",
    });
  });

  it("go when their time to live passes, told to every replica, a run still going stopped", async () => {
    const [a, b] = (await replicas(2, { tasks: { ttlMs: 200 } })) as [McpServer, McpServer];
    const { result } = await send(a, "tools/call", { name: "waits", arguments: { key: "ttl" } });
    await Promise.all([told(a, result.taskId), told(b, result.taskId)]);
    expect(aborted).toEqual(["ttl: The task's time to live passed before it finished"]);
    expect((await send(b, "tasks/get", { taskId: result.taskId })).error.code).toBe(-32602);
  });

  it("are taken on with their replica's lease held, whenever it was last renewed", async () => {
    // Redis reached, the lease not renewed yet: its timer fires a third of leaseMs (10 s) from
    // the start, as after an outage, or for a server served before it was ready().
    const prefix = "test-unrenewed:";
    const server = createServer({ name: "tasks", version: "1", redis: { url: redis.url, prefix } });
    servers.push(server.add(waits));
    // Internal: reaching Redis without ready(), which renews the lease.
    const { replicas } = server as unknown as {
      replicas: { id: string; link: { connected(waitMs: number): Promise<void> } };
    };
    await replicas.link.connected(5000);
    const lease = `${prefix}replica:${replicas.id}`;
    expect(await redis.command("EXISTS", lease)).toBe("0");
    const { result } = await send(server, "tools/call", { name: "waits", arguments: { key: "x" } });
    expect(await redis.command("HGET", `${prefix}running`, result.taskId)).toBe(replicas.id);
    expect(await redis.command("EXISTS", lease)).toBe("1");
  });

  it("take no other replica's task for an orphan before they have been up a whole lease", async () => {
    // As after an outage longer than the lease: B's lapsed, and A sweeps (a task of its expired)
    // before B's timer renews it. B is not known stopped until A has been up a lease.
    const prefix = "test-fresh-sweep:";
    const replica = (ttlMs: number) =>
      createServer({
        name: "tasks",
        version: "1",
        redis: { url: redis.url, prefix },
        tasks: { ttlMs },
      });
    const [a, b] = [replica(200).add(waits), replica(60_000).add(waits)];
    servers.push(a, b);
    await Promise.all([a.ready(), b.ready()]);
    const kept = await send(b, "tools/call", { name: "waits", arguments: { key: "kept" } });
    const { id } = (b as unknown as { replicas: { id: string } }).replicas;
    await redis.command("DEL", `${prefix}replica:${id}`);
    const store = a.tasks.store as RedisTaskStore;
    const sweep = store.sweep.bind(store);
    let swept: Promise<void> | undefined;
    store.sweep = () => {
      swept = sweep();
      return swept;
    };
    const expiring = await send(a, "tools/call", { name: "waits", arguments: { key: "short" } });
    await told(b, expiring.result.taskId);
    await swept;
    expect((await send(b, "tasks/get", { taskId: kept.result.taskId })).result.status).toBe(
      "working",
    );
  });

  it("survive the replica that made them: what one stopping left is read on the other", async () => {
    const [a, b] = (await replicas(2)) as [McpServer, McpServer];
    const done = await send(a, "tools/call", { name: "waits", arguments: { key: "kept" } });
    await send(b, "tasks/get", { taskId: done.result.taskId });
    const completed = told(b, done.result.taskId, "completed");
    gates.get("kept")?.();
    await completed;
    const stopped = await send(a, "tools/call", { name: "waits", arguments: { key: "stop" } });
    await a.close();
    expect((await send(b, "tasks/get", { taskId: done.result.taskId })).result).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "done kept" }] },
    });
    expect((await send(b, "tasks/get", { taskId: stopped.result.taskId })).result).toMatchObject({
      status: "failed",
      statusMessage: "The server stopped before the task finished",
    });
  });
});

describe("a listen stream on one replica", () => {
  it("is told of a change made while it looked the task up", async () => {
    const [a, b] = (await replicas(2)) as [McpServer, McpServer];
    const { result } = await send(a, "tools/call", { name: "waits", arguments: { key: "race" } });
    const { taskId } = result;
    // The task completes on A while B's stream reads it: B hears of it before the read's answer.
    const { store } = b.tasks;
    const read = store.get.bind(store);
    store.get = async (id) => {
      store.get = read;
      const before = await read(id);
      const completed = told(b, taskId, "completed");
      gates.get("race")?.();
      await completed;
      return before;
    };
    const notifications = new Inbox<Json>();
    void send(b, "subscriptions/listen", { notifications: { taskIds: [taskId] } }, undefined, (n) =>
      notifications.push(n),
    );
    const heard = await notifications.waitFor(
      (n) => n.method === "notifications/tasks",
      "the task's completion on the listen stream",
    );
    expect(notifications.items[0]?.method).toBe("notifications/subscriptions/acknowledged");
    expect(heard.params).toMatchObject({
      taskId,
      status: "completed",
      result: { content: [{ type: "text", text: "done race" }] },
    });
  });
});

describe("a redis option", () => {
  it("is refused, by name, when it is not a Redis URL", () => {
    expect(() => createServer({ name: "x", version: "1", redis: "http://127.0.0.1:6379" })).toThrow(
      'redis.url must be a redis:// or rediss:// URL, such as redis://127.0.0.1:6379, got "http://127.0.0.1:6379"',
    );
    expect(() =>
      createServer({ name: "x", version: "1", redis: { url: "redis://127.0.0.1", leaseMs: 5 } }),
    ).toThrow("redis.leaseMs must be a whole number of milliseconds from 100 to 2147483647, got 5");
  });
});
