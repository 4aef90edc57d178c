// Measures `mcp-dir dev` from the outside, as a user and a client see it: the time from
// spawning it to the first tools/list answer, the time from saving a file to the
// tools/list_changed notification at a connected client, and the resident memory of the
// dev process (read from /proc/<pid>/status) with 10 tools and after 1000 reloads.
// Every answer is checked; an error, a wrong answer or an early exit fails the run.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ENVELOPE } from "../era.mjs";
import { percentile } from "../stats.mjs";

const PROTOCOL_VERSION = "2025-06-18";
const STDERR_TAIL_CHARS = 4000;
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = join(REPO_ROOT, "dist", "cli", "main.js");
const WATCHING = "mcp-dir dev: watching";

/** Children still running, killed if this process exits before cleaning up. */
const liveChildren = new Set();
process.on("exit", () => {
  for (const child of liveChildren) child.kill("SIGKILL");
});

const TOOL_COUNT = 10;
const EDITED = "tools/tool-0.ts";

function toolSource(index, version) {
  return `import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  description: "Bench tool ${index}, version ${version}",
  input: { message: z.string().describe("Any text"), times: z.number().int().optional() },
  annotations: { readOnlyHint: true },
  handler: ({ message, times }) => message.repeat(times ?? 1),
});
`;
}

/**
 * The tool that reports the dev process's own heap, which can only be read inside:
 * process.memoryUsage() and the size of V8's young (new) and old generations.
 */
const MEMORY_TOOL = `import { getHeapSpaceStatistics } from "node:v8";
import { defineTool } from "mcp-dir";

export default defineTool({
  description: "Reports the memory use of the server process",
  handler: () => {
    const space = (name: string) =>
      getHeapSpaceStatistics().find((s) => s.space_name === name)?.space_size ?? 0;
    return { ...process.memoryUsage(), newSpace: space("new_space"), oldSpace: space("old_space") };
  },
});
`;

/**
 * A server directory with 10 tool files (9 echo-like tools and the memory tool), and
 * node_modules links to this repository (as "mcp-dir") and its zod, as a user's would have.
 */
export function createBenchDir() {
  const dir = mkdtempSync(join(tmpdir(), "mcp-dir-bench-dev-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "bench-dev", type: "module" }));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(REPO_ROOT, join(dir, "node_modules", "mcp-dir"), "dir");
  symlinkSync(join(REPO_ROOT, "node_modules", "zod"), join(dir, "node_modules", "zod"), "dir");
  mkdirSync(join(dir, "tools"));
  for (let i = 0; i < TOOL_COUNT - 1; i++) {
    writeFileSync(join(dir, "tools", `tool-${i}.ts`), toolSource(i, 0));
  }
  writeFileSync(join(dir, "tools", "memory.ts"), MEMORY_TOOL);
  return dir;
}

/** A newline-delimited JSON-RPC client over `mcp-dir dev <dir>` in a child process. */
class DevProcess {
  #child;
  #pending = new Map();
  #nextId = 1;
  #buffered = "";
  #stderr = "";
  #stderrWaiters = new Set();
  #notificationWaiters = new Set();
  #closed = false;
  #reject;
  notifications = [];
  /** Set for a 2026-07-28 client: every request then carries this `_meta`. */
  envelope;

  constructor(dir) {
    this.spawnedAt = performance.now();
    this.#child = spawn(process.execPath, [CLI, "dev", dir], { stdio: ["pipe", "pipe", "pipe"] });
    liveChildren.add(this.#child);
    this.pid = this.#child.pid;
    /** Rejects on the first failure; never resolves. */
    this.failed = new Promise((_, reject) => {
      this.#reject = reject;
    });
    this.failed.catch(() => {});
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk) => this.#onData(chunk));
    this.#child.stderr.setEncoding("utf8");
    this.#child.stderr.on("data", (chunk) => {
      this.#stderr += chunk;
      for (const wake of [...this.#stderrWaiters]) wake();
    });
    this.#child.stdin.on("error", (error) => this.fail(error));
    this.#child.on("error", (error) => this.fail(error));
    this.#child.on("exit", (code, signal) => {
      this.fail(new Error(`mcp-dir dev exited early (code ${code}, signal ${signal})`));
    });
  }

  request(method, params) {
    const id = this.#nextId++;
    const sent = this.envelope ? { ...params, _meta: this.envelope } : params;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, method });
      this.#write({ jsonrpc: "2.0", id, method, params: sent });
    });
  }

  /**
   * Speaks 2026-07-28: opens a subscriptions/listen stream for tool list changes
   * (its response only comes at shutdown) and resolves once it is acknowledged.
   */
  async listen() {
    this.envelope = ENVELOPE;
    void this.request("subscriptions/listen", { notifications: { toolsListChanged: true } });
    await this.waitForNotification("notifications/subscriptions/acknowledged", 1);
  }

  notify(method, params) {
    this.#write({ jsonrpc: "2.0", method, params });
  }

  /** Sends initialize and notifications/initialized; resolves with the initialize result. */
  async handshake() {
    const initialized = this.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "mcp-dir-bench-dev", version: "1.0.0" },
    });
    this.notify("notifications/initialized");
    const result = await initialized;
    if (typeof result?.protocolVersion !== "string") {
      throw new Error(`bad initialize result: ${JSON.stringify(result)}`);
    }
    return result;
  }

  /** Resolves with the arrival time of the `count`-th notification of `method`. */
  waitForNotification(method, count) {
    const check = () => this.notifications.filter((n) => n.method === method)[count - 1]?.at;
    return new Promise((resolve) => {
      const wake = () => {
        const at = check();
        if (at === undefined) return;
        this.#notificationWaiters.delete(wake);
        resolve(at);
      };
      this.#notificationWaiters.add(wake);
      wake();
    });
  }

  waitForStderr(text) {
    return new Promise((resolve) => {
      const wake = () => {
        if (!this.#stderr.includes(text)) return;
        this.#stderrWaiters.delete(wake);
        resolve();
      };
      this.#stderrWaiters.add(wake);
      wake();
    });
  }

  get stderr() {
    return this.#stderr;
  }

  fail(error) {
    if (this.#closed) return;
    const tail = this.#stderr.slice(-STDERR_TAIL_CHARS).trimEnd();
    if (tail !== "") error.message += `\n--- mcp-dir dev stderr (tail) ---\n${tail}`;
    this.close();
    this.#reject(error);
  }

  close() {
    this.#closed = true;
    this.#child.kill("SIGKILL");
    liveChildren.delete(this.#child);
  }

  #write(message) {
    if (!this.#closed) this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  #onData(chunk) {
    const at = performance.now();
    this.#buffered += chunk;
    let newline = this.#buffered.indexOf("\n");
    while (newline !== -1) {
      const line = this.#buffered.slice(0, newline);
      this.#buffered = this.#buffered.slice(newline + 1);
      if (line.trim() !== "") {
        try {
          this.#onMessage(line, at);
        } catch (error) {
          this.fail(error);
          return;
        }
      }
      newline = this.#buffered.indexOf("\n");
    }
  }

  #onMessage(line, at) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      throw new Error(`mcp-dir dev wrote a line that is not JSON: ${line.slice(0, 200)}`);
    }
    if (message.method !== undefined) {
      if (message.id !== undefined) throw new Error(`unexpected request: ${line.slice(0, 200)}`);
      if (message.method === "notifications/message" && message.params?.level === "error") {
        throw new Error(`mcp-dir dev reported an error: ${JSON.stringify(message.params.data)}`);
      }
      this.notifications.push({ method: message.method, at });
      for (const wake of [...this.#notificationWaiters]) wake();
      return;
    }
    const pending = this.#pending.get(message.id);
    if (pending === undefined) throw new Error(`response with unknown id: ${line.slice(0, 200)}`);
    this.#pending.delete(message.id);
    if (message.error !== undefined) {
      throw new Error(`error response to ${pending.method}: ${JSON.stringify(message.error)}`);
    }
    pending.resolve(message.result);
  }
}

/** VmRSS (and VmHWM, the peak) of a process, in MiB, from /proc/<pid>/status (Linux). */
export function readRss(pid) {
  let status;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rssMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 };
}

const MiB = (bytes) => bytes / 1024 / 1024;

async function heapOf(dev) {
  const result = await dev.request("tools/call", { name: "memory", arguments: {} });
  const usage = JSON.parse(result?.content?.[0]?.text ?? "null");
  if (typeof usage?.heapUsed !== "number") {
    throw new Error(`bad memory tool result: ${JSON.stringify(result)}`);
  }
  return {
    heapUsedMiB: MiB(usage.heapUsed),
    heapTotalMiB: MiB(usage.heapTotal),
    newSpaceMiB: MiB(usage.newSpace),
    oldSpaceMiB: MiB(usage.oldSpace),
    externalMiB: MiB(usage.external),
  };
}

/**
 * Resident memory after `idleMs` without any request, and the heap as the process sees
 * it; then, for `settleMs` more without any request, the lowest RSS seen (V8 gives memory
 * back when its memory reducer runs, some seconds into an idle period, if it runs at all).
 */
async function idleMemory(dev, idleMs, settleMs) {
  await pause(idleMs);
  const rss = readRss(dev.pid);
  const heap = await heapOf(dev);
  let settledRssMiB = rss.rssMiB;
  for (let waited = 0; waited < settleMs; waited += 500) {
    await pause(500);
    settledRssMiB = Math.min(settledRssMiB, readRss(dev.pid).rssMiB);
  }
  return { ...rss, ...heap, settledRssMiB };
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    min: sorted[0],
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1],
  };
}

/** Spawns `mcp-dir dev`, writes initialize and tools/list at once; ms until the list arrives. */
async function timeStartup(dir) {
  const dev = new DevProcess(dir);
  try {
    const list = dev.handshake().then(() => dev.request("tools/list", {}));
    const result = await Promise.race([list, dev.failed]);
    const ms = performance.now() - dev.spawnedAt;
    if (result?.tools?.length !== TOOL_COUNT) {
      throw new Error(
        `tools/list at startup: ${result?.tools?.length} tools, ${TOOL_COUNT} expected`,
      );
    }
    return ms;
  } finally {
    dev.close();
  }
}

/**
 * Saves EDITED with a new description and waits for tools/list_changed; checks with
 * tools/list that the new description is served. Returns save → notification in ms.
 */
async function timeEdit(dev, version) {
  const count = dev.notifications.filter(
    (n) => n.method === "notifications/tools/list_changed",
  ).length;
  const savedAt = performance.now();
  writeFileSync(join(dev.dir, EDITED), toolSource(0, version));
  const at = await Promise.race([
    dev.waitForNotification("notifications/tools/list_changed", count + 1),
    dev.failed,
  ]);
  const { tools } = await dev.request("tools/list", {});
  const description = tools.find((tool) => tool.name === "tool-0")?.description;
  if (description !== `Bench tool 0, version ${version}`) {
    throw new Error(`after save ${version}, tools/list says ${JSON.stringify(description)}`);
  }
  return at - savedAt;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the whole dev benchmark on a fresh directory. Resolves to
 * `{ startup, latency, memory }`; see bench/README.md for what each number means.
 */
export async function benchmarkDev({
  startups = 10,
  edits = 200,
  reloads = 1000,
  editGapMs = 100,
  reloadGapMs = 50,
  idleMs = 2000,
  settleMs = 30_000,
  timeoutMs = 600_000,
  log = () => {},
} = {}) {
  const dir = createBenchDir();
  let dev;
  let timer;
  const measure = async () => {
    const startupMs = [];
    for (let i = 0; i < startups; i++) startupMs.push(await timeStartup(dir));
    log(`startup: ${startupMs.map((ms) => ms.toFixed(0)).join(", ")} ms`);

    dev = new DevProcess(dir);
    dev.dir = dir;
    await Promise.race([dev.handshake(), dev.failed]);
    await Promise.race([dev.waitForStderr(WATCHING), dev.failed]);
    // Every tool answers once, as a client would use them, before the first reading.
    for (let i = 0; i < TOOL_COUNT - 1; i++) {
      await dev.request("tools/call", { name: `tool-${i}`, arguments: { message: "hi" } });
    }
    const atStart = await idleMemory(dev, idleMs, settleMs);
    log(`memory with ${TOOL_COUNT} tools: ${atStart.rssMiB.toFixed(1)} MiB RSS`);

    // The timed edits are the first of the reloads whose memory cost is measured.
    let version = 0;
    const latencyMs = [];
    for (let i = 0; i < edits; i++) {
      await pause(editGapMs);
      latencyMs.push(await timeEdit(dev, ++version));
    }
    const latency = stats(latencyMs);
    log(`save -> list_changed over ${edits} edits: p50 ${latency.p50.toFixed(1)} ms`);

    while (version < reloads) {
      await pause(reloadGapMs);
      await timeEdit(dev, ++version);
      if (version % 250 === 0) log(`reloads: ${version}/${reloads}`);
    }
    const after = await idleMemory(dev, idleMs, settleMs);
    log(`memory after ${version} reloads: ${after.rssMiB.toFixed(1)} MiB RSS`);
    dev.close();

    // The same saves seen by a 2026-07-28 client, on its subscriptions/listen stream.
    dev = new DevProcess(dir);
    dev.dir = dir;
    await Promise.race([dev.listen(), dev.failed]);
    await Promise.race([dev.waitForStderr(WATCHING), dev.failed]);
    const listenMs = [];
    for (let i = 0; i < edits; i++) {
      await pause(editGapMs);
      listenMs.push(await timeEdit(dev, ++version));
    }
    const listenLatency = stats(listenMs);
    log(`save -> list_changed on a 2026 listen stream: p50 ${listenLatency.p50.toFixed(1)} ms`);
    return {
      tools: TOOL_COUNT,
      startup: stats(startupMs),
      latency,
      listenLatency,
      memory: {
        atStart,
        afterReloads: after,
        reloads: version,
        rssGrowthMiB: after.rssMiB - atStart.rssMiB,
        settledRssGrowthMiB: after.settledRssMiB - atStart.settledRssMiB,
        heapUsedGrowthMiB: after.heapUsedMiB - atStart.heapUsedMiB,
      },
    };
  };
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([measure(), timeout]);
  } finally {
    clearTimeout(timer);
    dev?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Standalone use: node bench/dev/driver.mjs [--quick]
if (process.argv[1] === import.meta.filename) {
  const quick = process.argv.includes("--quick");
  const options = quick ? { startups: 3, edits: 50, reloads: 200, idleMs: 1000, settleMs: 0 } : {};
  const result = await benchmarkDev({ ...options, log: (line) => console.error(line) });
  console.log(JSON.stringify(result, null, 2));
}
