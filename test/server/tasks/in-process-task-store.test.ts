import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryBudget } from "../../../src/server/memory-budget.js";
import { InProcessTaskStore } from "../../../src/server/tasks/in-process-task-store.js";
import type { StoredTask } from "../../../src/server/tasks/task-store.js";

function task(taskId: string, fields: Partial<StoredTask> = {}): StoredTask {
  return {
    taskId,
    owner: undefined,
    status: "working",
    createdAt: 0,
    lastUpdatedAt: 0,
    ttlMs: 1000,
    pollIntervalMs: 100,
    ...fields,
  };
}

const FULL =
  "The server keeps 2 tasks at most (tasks.maxTasks), and has that many: try again once one has expired (each is kept for its ttlMs), or raise tasks.maxTasks in mcp-dir.config.ts or createServer";

describe("the in-process task store", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps a task for its time to live, then forgets it and says so", async () => {
    const store = new InProcessTaskStore(10);
    const told: [string, StoredTask | undefined][] = [];
    store.subscribe((taskId, changed) => told.push([taskId, changed]));
    await store.create(task("a", { ttlMs: 1000 }));
    vi.advanceTimersByTime(999);
    expect(await store.get("a")).toMatchObject({ taskId: "a" });
    vi.advanceTimersByTime(1);
    expect(await store.get("a")).toBeUndefined();
    expect(told).toEqual([["a", undefined]]);
  });

  it("refuses a task past maxTasks until one expires", async () => {
    const store = new InProcessTaskStore(2);
    await store.create(task("a", { ttlMs: 1000 }));
    await store.create(task("b", { ttlMs: 2000 }));
    await expect(store.create(task("c"))).rejects.toMatchObject({ code: -32000, message: FULL });
    vi.advanceTimersByTime(1000);
    await store.create(task("c"));
    expect(store.size).toBe(2);
  });

  it("applies a change to the task as it is, tells subscribers, and leaves it when the change says so", async () => {
    const store = new InProcessTaskStore(10);
    const told: string[] = [];
    store.subscribe((taskId, changed) => told.push(`${taskId} ${changed?.status}`));
    await store.create(task("a"));
    expect(await store.update("a", () => undefined)).toBeUndefined();
    expect(await store.update("missing", (t) => t)).toBeUndefined();
    const done = await store.update("a", (t) => ({ ...t, status: "completed" }));
    expect(done?.status).toBe("completed");
    expect(told).toEqual(["a completed"]);
  });

  it("lists the tasks of one owner", async () => {
    const store = new InProcessTaskStore(10);
    await store.create(task("a", { owner: "session:1" }));
    await store.create(task("b", { owner: "session:2" }));
    await store.create(task("c", { owner: "session:1" }));
    expect((await store.list("session:1")).map((t) => t.taskId)).toEqual(["a", "c"]);
  });

  it("counts what tasks keep in the memory budget, and gives it back when they go", async () => {
    const memory = new MemoryBudget(600);
    const store = new InProcessTaskStore(10, memory);
    await store.create(task("a"));
    const kept = memory.used;
    expect(kept).toBeGreaterThan(0);
    const big = { content: [{ type: "text", text: "x".repeat(1000) }] };
    await expect(
      store.update("a", (t) => ({ ...t, status: "completed", result: big })),
    ).rejects.toMatchObject({ code: -32000 });
    expect((await store.get("a"))?.status).toBe("working");
    expect(memory.used).toBe(kept);
    vi.advanceTimersByTime(1000);
    expect(memory.used).toBe(0);
  });
});
