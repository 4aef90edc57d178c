/**
 * A 2026-07-28 listen stream following a task whose time to live passes
 * before it ends (the server's tasks.ttlMs, short here): the stream tells its
 * client the task failed, saying why, as the tasks extension lets a server
 * mark a task failed once its TTL has elapsed, instead of leaving the client
 * waiting for an end that never comes. The task is created over the wire (no
 * official client creates one yet) and followed by the official v2 client,
 * over HTTP to the real CLI.
 */
import { describe, expect, it } from "vitest";
import { servedFiles } from "./helpers/clients.js";
import { expiredNotice, TTL_MS, withTtl } from "./helpers/task-expiry.js";
import { TASK_SERVER } from "./helpers/task-server.js";
import { httpTaskWire } from "./helpers/task-wire.js";
import { taskFollower } from "./helpers/v2-task-follower.js";

const serve = servedFiles(withTtl(TASK_SERVER));

describe("a task whose time to live passes before it ends", () => {
  it("is told failed, saying why, on the listen stream that follows it", async () => {
    const target = await serve("http");
    if (!("url" in target)) throw new Error("an HTTP target was asked for");
    const wire = httpTaskWire(target.url);
    const follower = await taskFollower(target);
    const { result: created } = await wire.request("tools/call", {
      name: "forever",
      arguments: { key: "expiry" },
    });
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: TTL_MS });
    const { taskId } = created;
    await follower.follow([taskId]);
    const told = await follower.told.waitFor((task) => task.taskId === taskId, "its end");
    expect(told).toEqual(expiredNotice(created));
    // Gone from the store: a poll now is refused as for any task there is no more.
    expect((await wire.request("tasks/get", { taskId })).error?.code).toBe(-32602);
  });
});
