/**
 * What replicas tell each other of a task's change in a real redis-server:
 * a notice (its id, version and status), never the task itself, which a
 * replica that follows the task reads from the store. So a large result does
 * not fill every subscriber's output buffer, which Redis (its
 * `client-output-buffer-limit pubsub`, lowered here to 1 MB) answers by
 * dropping every replica's subscription: an outage on each.
 */
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer, defineTool, type McpServer } from "../../../src/index.js";
import { type RedisServer, startRedis, stopAllRedis } from "../../helpers/redis-server.js";
import { send, told } from "../helpers/task-tools.js";

const RESULT_CHARS = 2 * 1024 * 1024;
const PREFIX = "test-notices:";

let redis: RedisServer;
const servers: McpServer[] = [];
const warnings: string[] = [];
/** Each message published on the task channel, in bytes, as a subscriber receives it. */
const published: number[] = [];
let listener: ReturnType<typeof createClient> | undefined;
const gates = new Map<string, () => void>();

const large = defineTool({
  name: "large",
  description: "Answers with a large text once its gate opens",
  task: "optional",
  input: { key: z.string() },
  handler: ({ key }) =>
    new Promise<string>((resolve) => gates.set(key, () => resolve("x".repeat(RESULT_CHARS)))),
});

beforeAll(async () => {
  redis = await startRedis();
  await redis.command("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 512kb 60");
  listener = createClient({ url: redis.url });
  // Dropped with the replicas' subscriptions when a message overflows its buffer: it reconnects.
  listener.on("error", () => {});
  await listener.connect();
  await listener.subscribe(`${PREFIX}task-changes`, (message) => {
    published.push(Buffer.byteLength(message));
  });
  const replica = () =>
    createServer({
      name: "notices",
      version: "1",
      redis: { url: redis.url, prefix: PREFIX },
      warn: (message) => warnings.push(message),
    }).add(large);
  servers.push(replica(), replica());
  await Promise.all(servers.map((server) => server.ready()));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await listener?.close();
  await stopAllRedis();
});

describe("a large task result", () => {
  it("reaches the replica that follows the task, and no replica loses Redis", async () => {
    const [a, b] = servers as [McpServer, McpServer];
    const keys = ["one", "two"];
    const ids: string[] = [];
    for (const key of keys) {
      const { result } = await send(a, "tools/call", { name: "large", arguments: { key } });
      ids.push(result.taskId);
      // Read through B, which so follows it.
      expect((await send(b, "tasks/get", { taskId: result.taskId })).result.status).toBe("working");
    }
    const completed = ids.map((taskId) => told(b, taskId, "completed"));
    for (const key of keys) gates.get(key)?.();
    for (const task of await Promise.all(completed)) {
      expect(task?.result).toEqual({ content: [{ type: "text", text: "x".repeat(RESULT_CHARS) }] });
    }
    expect(warnings).toEqual([]);
    expect(Math.max(...published)).toBeLessThan(1024);
  });
});
