/**
 * 2025-11-25's `tasks/list`, paged, through the v1 SDK client over HTTP to
 * the real CLI: a task that expires while the client pages leaves every
 * other task listed, as the revision asks (any task `tasks/get` reaches,
 * `tasks/list` lists).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliHere, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { refusal } from "./helpers/clients.js";
import { TASK_SERVER } from "./helpers/task-server.js";

let client: Client;
beforeAll(async () => {
  const dir = await createServerDir({
    ...TASK_SERVER,
    "mcp-dir.config.json": JSON.stringify({ name: "tasks", version: "1.0.0", pageSize: 2 }),
  });
  const { url } = await startCliHere(["serve", dir, "--http", "--port", "0"]);
  client = new Client({ name: "tasks-list", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
});
afterAll(async () => {
  await client.close();
  await stopAll();
  await removeServerDirs();
});

/** Starts `gated` as a task kept `ttl` ms; resolves with its id. */
async function startTask(key: string, ttl: number): Promise<string> {
  const { task } = await client.request(
    { method: "tools/call", params: { name: "gated", arguments: { key }, task: { ttl } } },
    CreateTaskResultSchema,
  );
  return task.taskId;
}

describe("2025-11-25 tasks/list", () => {
  it("pages every task that lives on when one listed before it expires", async () => {
    const soonGone = await startTask("list-1", 2000);
    const lasting = [
      await startTask("list-2", 600_000),
      await startTask("list-3", 600_000),
      await startTask("list-4", 600_000),
    ];
    const first = await client.experimental.tasks.listTasks();
    expect(first.tasks).toHaveLength(2);
    expect(first.tasks.map((task) => task.taskId)).toContain(soonGone);
    // tasks/result waits for the task's end: for this one, its expiry.
    expect((await refusal(client.experimental.tasks.getTaskResult(soonGone))).code).toBe(-32602);
    const listed = first.tasks.map((task) => task.taskId);
    for (let cursor = first.nextCursor; cursor !== undefined; ) {
      const page = await client.experimental.tasks.listTasks(cursor);
      listed.push(...page.tasks.map((task) => task.taskId));
      cursor = page.nextCursor;
    }
    // Each once (tasks of one millisecond are listed by id).
    expect(listed.toSorted()).toEqual([soonGone, ...lasting].toSorted());
  });

  it("refuses a cursor it did not issue", async () => {
    expect(await refusal(client.experimental.tasks.listTasks("bm90LWEtY3Vyc29y"))).toEqual({
      code: -32602,
      message: expect.stringMatching(/^Invalid cursor: "bm90LWEtY3Vyc29y" is not a cursor/),
    });
  });
});
