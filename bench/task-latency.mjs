// How long a task takes, in one process, for a tool that returns at once: from a
// 2026-07-28 tools/call to its CreateTaskResult, and to the task being completed (its
// result readable through tasks/get). The in-process task store, or with --redis the
// Redis one (a redis-server of its own on a free port, /usr/bin/redis-server); no transport.
// Usage: node bench/task-latency.mjs [--tasks N] [--redis]
import { spawn } from "node:child_process";
import { createServer as createNetServer } from "node:net";
import { parseArgs } from "node:util";
import { createServer, defineTool } from "../dist/index.js";
import { median } from "./stats.mjs";

const { values } = parseArgs({
  options: { tasks: { type: "string", default: "5000" }, redis: { type: "boolean" } },
});
const count = Number(values.tasks);
const WARMUP = 500;

/** A redis-server on a port that was free, once its log says it is ready. */
async function startRedis() {
  const port = await new Promise((resolve, reject) => {
    const probe = createNetServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const child = spawn(
    "/usr/bin/redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise((resolve, reject) => {
    let log = "";
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}):\n${log}`)));
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      log += chunk;
      if (log.includes("Ready to accept connections")) resolve();
    });
  });
  child.stdout.resume();
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}

const redis = values.redis ? await startRedis() : undefined;
const server = createServer({
  name: "task-latency",
  version: "1",
  tasks: { maxTasks: 1e9 },
  ...(redis && { redis: redis.url }),
});
await server.ready();
server.add(
  defineTool({
    name: "now",
    description: "Returns at once, as a task",
    task: "optional",
    handler: () => "done",
  }),
);

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {
    extensions: { "io.modelcontextprotocol/tasks": {} },
  },
};

/** When each task completed, by id, and who waits for one that has not yet. */
const completedAt = new Map();
const waiting = new Map();
server.tasks.store.subscribe((taskId, task) => {
  if (task?.status !== "completed") return;
  const now = performance.now();
  completedAt.set(taskId, now);
  waiting.get(taskId)?.(now);
});

let id = 0;
async function once() {
  const start = performance.now();
  const response = await server.serveRequest(
    {
      jsonrpc: "2.0",
      id: ++id,
      method: "tools/call",
      params: { name: "now", arguments: {}, _meta: META },
    },
    { notify: () => {} },
  );
  const created = performance.now();
  const { taskId } = JSON.parse(JSON.stringify(response.result));
  // The task may have completed before its CreateTaskResult was read.
  const done =
    completedAt.get(taskId) ?? (await new Promise((resolve) => waiting.set(taskId, resolve)));
  completedAt.delete(taskId);
  waiting.delete(taskId);
  return { create: created - start, result: done - start };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

for (let i = 0; i < WARMUP; i++) await once();
const creates = [];
const results = [];
for (let i = 0; i < count; i++) {
  const { create, result } = await once();
  creates.push(create * 1000);
  results.push(result * 1000);
}
creates.sort((a, b) => a - b);
results.sort((a, b) => a - b);
const row = (label, values) =>
  `${label.padEnd(36)} ${median(values).toFixed(1).padStart(8)} ${percentile(values, 0.99).toFixed(1).padStart(9)}`;
console.log(
  `task latency, ${redis ? "Redis (local redis-server)" : "in-process"}, ${count} tasks of a tool that returns at once (node ${process.version})`,
);
console.log(`${"".padEnd(36)} ${"p50 (µs)".padStart(8)} ${"p99 (µs)".padStart(9)}`);
console.log(row("tools/call to CreateTaskResult", creates));
console.log(row("tools/call to the task completed", results));
await server.close();
redis?.stop();
