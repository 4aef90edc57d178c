/**
 * Redis stopped and started while two replicas serve: what needs it fails
 * with an error that says so, everything else is served as before, and once
 * Redis is back both reconnect by themselves: a task whose run ended during
 * the outage is recorded as it ended, and updates cross replicas again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpTaskWire, type TaskWire } from "../eras/helpers/task-wire.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { SseReader } from "../helpers/sse-reader.js";
import { type CliServer, openGetStream, openSession, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { listenTo, REPLICATED_SERVER, startPair } from "./fixture.js";

let redis: RedisServer;
let a: CliServer;
let b: CliServer;
let onA: TaskWire;
let onB: TaskWire;

beforeAll(async () => {
  const [server, dir] = await Promise.all([
    startRedis({ persistent: true }),
    createServerDir(REPLICATED_SERVER),
  ]);
  redis = server;
  [a, b] = await startPair(dir, redis.url);
  onA = httpTaskWire(a.url);
  onB = httpTaskWire(b.url);
});
afterAll(async () => {
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

describe("Redis stopped and started while replicas serve", () => {
  it("fails what needs it, clearly, serves the rest, and is used again once back", async () => {
    const where = escaped(redis.url);
    const created = await onA.request("tools/call", { name: "gated", arguments: { key: "o" } });
    const { taskId } = created.result;
    const stream = await listenTo(b.url, { resourceSubscriptions: ["memo://board"] });
    const sessionId = await openSession(a.url);
    const standalone = new SseReader(await openGetStream(a.url, sessionId));
    const primed = await standalone.next();

    await redis.stop();
    const down = new RegExp(
      `Redis at ${where} cannot be reached \\(.+\\): tasks, resource updates between replicas and 2025 streams resumed on another replica wait for it; reconnecting\\n`,
    );
    await Promise.all([a.waitForStderr(down), b.waitForStderr(down)]);

    const read = await onB.request("tasks/get", { taskId });
    expect(read.error.code).toBe(-32603);
    expect(read.error.message).toMatch(
      new RegExp(
        `^Reading a task needs Redis at ${where}, which cannot be reached \\(.+\\); try again shortly: the server reconnects by itself$`,
      ),
    );
    const task = await onB.request("tools/call", { name: "gated", arguments: { key: "never" } });
    expect(task.error.message).toMatch(
      new RegExp(
        `^A tool call that runs as a task needs Redis at ${where}, which cannot be reached`,
      ),
    );
    const resumed = await openGetStream(b.url, sessionId, { "last-event-id": primed?.id ?? "" });
    expect(resumed.status).toBe(503);
    expect(((await resumed.json()) as { error: { message: string } }).error.message).toMatch(
      new RegExp(
        `^Service Unavailable: Resuming a stream of a session another replica holds needs Redis at ${where}, which cannot be reached`,
      ),
    );
    // What needs no Redis is served as ever, the run of the task included.
    expect(
      (await onB.request("tools/call", { name: "plain", arguments: {} })).result.content,
    ).toEqual([{ type: "text", text: "plain" }]);
    await onA.request("tools/call", { name: "open", arguments: { key: "o", value: "meanwhile" } });

    await redis.start();
    const back = new RegExp(`Redis at ${where} is reachable again\\n`);
    await Promise.all([a.waitForStderr(back), b.waitForStderr(back)]);
    expect((await onB.until(taskId, "completed")).result).toEqual({
      content: [{ type: "text", text: "opened with meanwhile" }],
    });
    await onA.request("tools/call", { name: "touch", arguments: {} });
    const told = await stream.notifications.waitFor(
      (message) => message.method === "notifications/resources/updated",
      "the update on B's listen stream, after the outage",
    );
    expect(told.params.uri).toBe("memo://board");
  });

  it("asks what a run asks during the outage once Redis is back, not never", async () => {
    const created = await onA.request("tools/call", { name: "confirm", arguments: { key: "q" } });
    const { taskId } = created.result;
    const where = escaped(redis.url);
    await redis.stop();
    await a.waitForStderr(
      new RegExp(`Redis at ${where} cannot be reached[^]*Redis at ${where} cannot be reached`),
    );
    // The run asks as its gate opens, before this call is answered.
    await onA.request("tools/call", { name: "open", arguments: { key: "q" } });
    await redis.start();
    const back = new RegExp(
      `Redis at ${where} is reachable again[^]*Redis at ${where} is reachable again\\n`,
    );
    await Promise.all([a.waitForStderr(back), b.waitForStderr(back)]);
    const waiting = await onB.until(taskId, "input_required");
    const [key] = Object.keys(waiting.inputRequests);
    await onB.request("tasks/update", {
      taskId,
      inputResponses: { [key as string]: { action: "accept", content: { ok: true } } },
    });
    expect((await onB.until(taskId, "completed")).result).toEqual({
      content: [{ type: "text", text: "went on" }],
    });
  });
});
