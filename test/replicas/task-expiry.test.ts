/**
 * A task whose time to live passes before it ends, run by one replica and
 * followed on the other's listen stream, both sharing a real redis-server:
 * the replica that sweeps it away tells the others it is gone, and the
 * stream tells its client the task failed, saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients } from "../eras/helpers/clients.js";
import { expiredNotice, TTL_MS, withTtl } from "../eras/helpers/task-expiry.js";
import { httpTaskWire } from "../eras/helpers/task-wire.js";
import { taskFollower } from "../eras/helpers/v2-task-follower.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { type CliServer, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { STEADY_SERVER, startPair } from "./fixture.js";

let redis: RedisServer;
let a: CliServer;
let b: CliServer;

beforeAll(async () => {
  const [server, dir] = await Promise.all([startRedis(), createServerDir(withTtl(STEADY_SERVER))]);
  redis = server;
  [a, b] = await startPair(dir, redis.url);
});
afterAll(async () => {
  await closeClients();
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

describe("a task run on one replica, followed on the other", () => {
  it("is told failed, saying why, once its time to live passes", async () => {
    const { result: created } = await httpTaskWire(a.url).request("tools/call", {
      name: "forever",
      arguments: { key: "expiry" },
    });
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: TTL_MS });
    const { taskId } = created;
    const follower = await taskFollower({ url: b.url });
    await follower.follow([taskId]);
    const told = await follower.told.waitFor((task) => task.taskId === taskId, "its end");
    expect(told).toEqual(expiredNotice(created));
    expect((await httpTaskWire(b.url).request("tasks/get", { taskId })).error?.code).toBe(-32602);
  });
});
