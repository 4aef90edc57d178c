/**
 * A replica that lives on after its lease lapsed (its event loop held longer
 * than the lease, as a long synchronous handler does): another replica takes
 * its tasks for orphans and fails them, and the paused replica, once it
 * runs again, stops their runs: a task that has ended runs no more.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLICA_STOPPED } from "../../src/server/replicas/redis-task-store.js";
import { httpTaskWire, type TaskWire } from "../eras/helpers/task-wire.js";
import { startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { REPLICATED_SERVER, startPair } from "./fixture.js";

/** Holds the event loop (no timer, no I/O runs) until a file exists. */
const HOLD = `import { existsSync } from "node:fs";
import { defineTool } from "mcp-dir";
import { z } from "zod";
const view = new Int32Array(new SharedArrayBuffer(4));
export default defineTool({
  description: "Holds the event loop until the file at path exists",
  input: { path: z.string() },
  handler: ({ path }) => {
    while (!existsSync(path)) Atomics.wait(view, 0, 0, 20);
    return "released";
  },
});`;

let dir: string;
let onA: TaskWire;
let onB: TaskWire;
beforeAll(async () => {
  const [redis, created] = await Promise.all([
    startRedis(),
    createServerDir({ ...REPLICATED_SERVER, "tools/hold.ts": HOLD }),
  ]);
  dir = created;
  const [a, b] = await startPair(dir, redis.url);
  onA = httpTaskWire(a.url);
  onB = httpTaskWire(b.url);
});
afterAll(async () => {
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

describe("a replica whose lease lapsed while it was held", () => {
  it("stops the runs of the tasks another replica failed meanwhile", async () => {
    const created = await onA.request("tools/call", { name: "forever", arguments: { key: "p" } });
    const { taskId } = created.result;
    const released = join(dir, "released");
    const held = onA.request("tools/call", { name: "hold", arguments: { path: released } });
    expect(await onB.until(taskId, "failed")).toMatchObject({ statusMessage: REPLICA_STOPPED });
    await writeFile(released, "");
    expect((await held).result.content).toEqual([{ type: "text", text: "released" }]);
    const why = await onA.request("tools/call", { name: "abort-reason", arguments: { key: "p" } });
    expect(why.result.content).toEqual([{ type: "text", text: REPLICA_STOPPED }]);
  });
});
