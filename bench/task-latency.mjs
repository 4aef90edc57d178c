// How long a task takes, in one process, for a tool that returns at once: from a
// 2026-07-28 tools/call to its CreateTaskResult, and to the task being completed (its
// result readable through tasks/get). The in-process task store; no transport.
// Usage: node bench/task-latency.mjs [--tasks N]
import { parseArgs } from "node:util";
import { createServer, defineTool } from "../dist/index.js";
import { median } from "./stats.mjs";

const { values } = parseArgs({ options: { tasks: { type: "string", default: "5000" } } });
const count = Number(values.tasks);
const WARMUP = 500;

const server = createServer({ name: "task-latency", version: "1", tasks: { maxTasks: 1e9 } });
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
  `task latency, in-process, ${count} tasks of a tool that returns at once (node ${process.version})`,
);
console.log(`${"".padEnd(36)} ${"p50 (µs)".padStart(8)} ${"p99 (µs)".padStart(9)}`);
console.log(row("tools/call to CreateTaskResult", creates));
console.log(row("tools/call to the task completed", results));
await server.close();
