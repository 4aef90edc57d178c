/**
 * Tasks across two `mcp-dir serve --http` replicas of one folder sharing a
 * real redis-server: created through one, finished, read, answered and
 * cancelled through the other; a task whose replica died or stopped (over
 * HTTP or stdio) ends failed; and a call that asks first, begun on one,
 * becomes a task on the other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLICA_STOPPED } from "../../src/server/replicas/redis-task-store.js";
import { DECLARING, httpTaskWire, type TaskWire } from "../eras/helpers/task-wire.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { killRawClients, RawClient } from "../server/helpers/raw-client.js";
import { REPLICATED_SERVER, STEADY_SERVER, startPair, startReplica } from "./fixture.js";

let redis: RedisServer;
let dir: string;
/** A replica of `dir` whose lease outlasts the test: what is stopped here, not found dead. */
let steadyDir: string;
let onA: TaskWire;
let onB: TaskWire;

beforeAll(async () => {
  [redis, dir, steadyDir] = await Promise.all([
    startRedis(),
    createServerDir(REPLICATED_SERVER),
    createServerDir(STEADY_SERVER),
  ]);
  const [a, b] = await startPair(dir, redis.url);
  onA = httpTaskWire(a.url);
  onB = httpTaskWire(b.url);
});
afterAll(async () => {
  await Promise.all([stopAll(), killRawClients()]);
  await stopAllRedis();
  await removeServerDirs();
});

const SHUT_DOWN = "The server stopped before the task finished";
const textOf = (text: string) => ({ content: [{ type: "text", text }] });

/** Whether the replica Redis names as running `taskId` holds its lease (else a sweep takes the task). */
async function runnerHoldsLease(taskId: string): Promise<boolean> {
  const runner = await redis.command("HGET", "mcp-dir:replicated:running", taskId);
  return (await redis.command("EXISTS", `mcp-dir:replicated:replica:${runner}`)) === "1";
}

describe("a task on replicas that share Redis", () => {
  it("is created through one, then finished and read through the other", async () => {
    const created = await onA.request("tools/call", { name: "gated", arguments: { key: "g" } });
    const { taskId } = created.result;
    expect((await onB.request("tasks/get", { taskId })).result).toMatchObject({
      status: "working",
      statusMessage: "waiting for g",
    });
    await onA.request("tools/call", { name: "open", arguments: { key: "g", value: "A" } });
    expect((await onB.until(taskId, "completed")).result).toEqual(textOf("opened with A"));
  });

  it("is answered through the other replica than the one that runs it", async () => {
    const created = await onA.request("tools/call", { name: "confirm", arguments: { key: "c" } });
    const { taskId } = created.result;
    await onA.request("tools/call", { name: "open", arguments: { key: "c" } });
    const waiting = await onB.until(taskId, "input_required");
    const [key] = Object.keys(waiting.inputRequests);
    await onB.request("tasks/update", {
      taskId,
      inputResponses: { [key as string]: { action: "accept", content: { ok: true } } },
    });
    expect((await onB.until(taskId, "completed")).result).toEqual(textOf("went on"));
  });

  it("is cancelled through the other: the run where it runs is stopped", async () => {
    const created = await onA.request("tools/call", { name: "forever", arguments: { key: "f" } });
    const { taskId } = created.result;
    const cancelled = await onB.request("tasks/cancel", { taskId });
    expect(cancelled.error).toBeUndefined();
    const why = await onA.request("tools/call", { name: "abort-reason", arguments: { key: "f" } });
    expect(why.result.content).toEqual(textOf("The client cancelled the task").content);
    expect((await onA.request("tasks/get", { taskId })).result.status).toBe("cancelled");
  });

  it("ends failed, saying so, when the replica that ran it dies", async () => {
    const doomed = await startReplica(dir, redis.url);
    const created = await httpTaskWire(doomed.url).request("tools/call", {
      name: "forever",
      arguments: { key: "doomed" },
    });
    const { taskId } = created.result;
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    expect(await onB.until(taskId, "failed")).toMatchObject({
      statusMessage: REPLICA_STOPPED,
      error: { code: -32603, message: REPLICA_STOPPED },
    });
  });

  it("ends failed at once, saying so, when the replica that ran it is stopped (SIGTERM)", async () => {
    const stopped = await startReplica(steadyDir, redis.url);
    const created = await httpTaskWire(stopped.url).request("tools/call", {
      name: "forever",
      arguments: { key: "stopped" },
    });
    const { taskId } = created.result;
    expect(await runnerHoldsLease(taskId)).toBe(true);
    stopped.child.kill("SIGTERM");
    expect(await stopped.exited).toEqual({ code: null, signal: "SIGTERM" });
    // Read, not awaited: the stopped replica failed it before it gave up its lease.
    const read = await onB.request("tasks/get", { taskId });
    expect(read.result).toMatchObject({
      status: "failed",
      statusMessage: SHUT_DOWN,
      error: { code: -32603, message: SHUT_DOWN },
    });
  });

  it("ends failed at once, saying so, when a replica serving stdio is stopped (SIGTERM)", async () => {
    const stopped = RawClient.cli(["serve", steadyDir], { MCP_DIR_REDIS_URL: redis.url });
    const created = await stopped.request("tools/call", {
      name: "forever",
      arguments: { key: "stopped-stdio" },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": DECLARING,
      },
    });
    const { taskId } = created.result;
    // Served only once it holds its lease, as over HTTP: no sweep may fail the task meanwhile.
    expect(await runnerHoldsLease(taskId)).toBe(true);
    expect(await stopped.signal("SIGTERM")).toEqual({ code: null, signal: "SIGTERM" });
    expect((await onB.request("tasks/get", { taskId })).result).toMatchObject({
      status: "failed",
      statusMessage: SHUT_DOWN,
      error: { code: -32603, message: SHUT_DOWN },
    });
  });

  it("asked for input on one replica is made on the other, which has the same requestState key", async () => {
    const asked = await onA.request("tools/call", { name: "ask-first", arguments: { key: "m" } });
    expect(asked.result.resultType).toBe("input_required");
    const created = await onB.request("tools/call", {
      name: "ask-first",
      arguments: { key: "m" },
      requestState: asked.result.requestState,
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
    });
    expect(created.result.resultType).toBe("task");
    await onB.request("tools/call", { name: "open", arguments: { key: "m" } });
    expect((await onA.until(created.result.taskId, "completed")).result).toEqual(
      textOf("Hello, Ada"),
    );
  });
});
