/**
 * One replica cut off from Redis for a while (a network blip, its
 * connections killed) while the other serves on: what changed meanwhile is
 * not heard on its channel, so once back the replica reads again the tasks
 * it follows. A listen stream on it is told the task's end, and a run on it
 * gets the answer given through the other replica.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpTaskWire, type TaskWire } from "../eras/helpers/task-wire.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { type CliServer, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { STEADY_SERVER, startReplica } from "./fixture.js";

let redis: RedisServer;
/** Connects as the Redis user "cut", whom the test turns off to cut it off. */
let cut: CliServer;
let onA: TaskWire;
let onCut: TaskWire;

beforeAll(async () => {
  const [server, dir] = await Promise.all([startRedis(), createServerDir(STEADY_SERVER)]);
  redis = server;
  await redis.command("ACL", "SETUSER", "cut", "on", ">secret", "~*", "&*", "+@all");
  const cutUrl = redis.url.replace("redis://", "redis://cut:secret@");
  const [a, replica] = await Promise.all([startReplica(dir, redis.url), startReplica(dir, cutUrl)]);
  cut = replica;
  onA = httpTaskWire(a.url);
  onCut = httpTaskWire(cut.url);
});
afterAll(async () => {
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

/** Cuts the replica off (its connections dropped, none let in), runs `meanwhile`, lets it back. */
async function whileCutOff(meanwhile: () => Promise<void>): Promise<void> {
  const since = cut.stderr().length;
  const after = (pattern: RegExp) =>
    cut.waitForStderr(new RegExp(`^[^]{${since}}[^]*${pattern.source}`));
  await redis.command("ACL", "SETUSER", "cut", "off");
  await redis.command("CLIENT", "KILL", "USER", "cut");
  await after(/cannot be reached/);
  await meanwhile();
  await redis.command("ACL", "SETUSER", "cut", "on");
  await after(/is reachable again\n/);
}

describe("a replica cut off from Redis for a while", () => {
  it("tells its listen stream of a task that ended meanwhile, once back", async () => {
    const created = await onA.request("tools/call", { name: "gated", arguments: { key: "e" } });
    const { taskId } = created.result;
    const stream = await onCut.listen([taskId]);
    expect(stream.acknowledged.params.notifications.taskIds).toEqual([taskId]);
    await whileCutOff(async () => {
      await onA.request("tools/call", { name: "open", arguments: { key: "e", value: "A" } });
      await onA.until(taskId, "completed");
    });
    const told = await stream.waitFor(
      (message) => message.params.status === "completed",
      `task ${taskId} completed, on the stream of the replica that was cut off`,
    );
    expect(told.params.result).toEqual({ content: [{ type: "text", text: "opened with A" }] });
  });

  it("hands its run the answer given through the other replica meanwhile, once back", async () => {
    const created = await onCut.request("tools/call", {
      name: "confirm",
      arguments: { key: "c" },
    });
    const { taskId } = created.result;
    await onCut.request("tools/call", { name: "open", arguments: { key: "c" } });
    const waiting = await onA.until(taskId, "input_required");
    const [key] = Object.keys(waiting.inputRequests);
    await whileCutOff(async () => {
      const update = await onA.request("tasks/update", {
        taskId,
        inputResponses: { [key as string]: { action: "accept", content: { ok: true } } },
      });
      expect(update.error).toBeUndefined();
    });
    expect((await onA.until(taskId, "completed")).result).toEqual({
      content: [{ type: "text", text: "went on" }],
    });
  });
});
