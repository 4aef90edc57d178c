/**
 * A task whose store is Redis is created over a round trip: a handler that
 * waits a moment, then asks or reports, does so while the task is being
 * created. What it asks then is the task's to ask (the call has been decided
 * a task), as it is with a store in the process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpTaskWire, type TaskWire } from "../eras/helpers/task-wire.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { STEADY_SERVER, startReplica } from "./fixture.js";

/** Waits one turn of the event loop (less than Redis takes to answer), then reports and asks. */
const ASK_SOON = `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Waits a turn of the event loop, reports, then asks",
  task: "optional",
  handler: async (_args, ctx) => {
    await new Promise((resolve) => setImmediate(resolve));
    await ctx.progress(1, 2, "asking");
    const answer = await ctx.elicit({ message: "Go on?", schema: { ok: z.boolean() } });
    return answer.action === "accept" && answer.content.ok ? "went on" : "stopped";
  },
});`;

let redis: RedisServer;
let wire: TaskWire;
beforeAll(async () => {
  const [started, dir] = await Promise.all([
    startRedis(),
    createServerDir({ ...STEADY_SERVER, "tools/ask-soon.ts": ASK_SOON }),
  ]);
  redis = started;
  wire = httpTaskWire((await startReplica(dir, redis.url)).url);
});
afterAll(async () => {
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

describe("a task kept in Redis", () => {
  it("asks, through the task, what its handler asks while the task is being created", async () => {
    const created = await wire.request("tools/call", { name: "ask-soon", arguments: {} });
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const { taskId } = created.result;
    const waiting = await wire.until(taskId, "input_required");
    expect(waiting).toMatchObject({
      statusMessage: "asking",
      inputRequests: { "elicitation-1": { method: "elicitation/create" } },
    });
    await wire.request("tasks/update", {
      taskId,
      inputResponses: { "elicitation-1": { action: "accept", content: { ok: true } } },
    });
    expect((await wire.until(taskId, "completed")).result).toEqual({
      content: [{ type: "text", text: "went on" }],
    });
    expect(await redis.command("KEYS", "mcp-dir:replicated:task:*")).toBe(
      `mcp-dir:replicated:task:${taskId}`,
    );
  });
});
