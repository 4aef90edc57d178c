/**
 * A Redis that restarts without its data (no persistence) while a replica
 * runs a task: the task is gone for every client, so its run is stopped,
 * saying why, and the replica says so on stderr, rather than working on
 * for a result no one can read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpTaskWire, type TaskWire } from "../eras/helpers/task-wire.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { type CliServer, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { STEADY_SERVER, startReplica } from "./fixture.js";

let redis: RedisServer;
let replica: CliServer;
let wire: TaskWire;
beforeAll(async () => {
  const [server, dir] = await Promise.all([startRedis(), createServerDir(STEADY_SERVER)]);
  redis = server;
  replica = await startReplica(dir, redis.url);
  wire = httpTaskWire(replica.url);
});
afterAll(async () => {
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

const LOST =
  "The task is gone from Redis, which came back without it (restarted without its data?)";

describe("a task Redis lost in a restart", () => {
  it("has its run stopped, saying why, once Redis is back", async () => {
    const created = await wire.request("tools/call", { name: "forever", arguments: { key: "l" } });
    const { taskId } = created.result;
    await redis.stop();
    await redis.start();
    await replica.waitForStderr(
      new RegExp(
        `task ${taskId} is gone from Redis at redis://127\\.0\\.0\\.1:\\d+, which came back without it \\(restarted without its data\\?\\): its run here was stopped\\n`,
      ),
    );
    const why = await wire.request("tools/call", { name: "abort-reason", arguments: { key: "l" } });
    expect(why.result.content).toEqual([{ type: "text", text: LOST }]);
    expect((await wire.request("tasks/get", { taskId })).error.code).toBe(-32602);
  });
});
