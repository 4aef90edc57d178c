// Large folders: time from spawning a server to its first tools/list answer, for a
// folder of 10, 100 and 1000 small zod tool files, against the plain-Node floor (the
// same definitions written as .mjs, imported and their schemas converted, then
// answered by hand). Rows: serve with a warm tsx cache, with none, and with an
// empty one (a fresh container), dev, and the built bundle (mcp-dir build); then
// tools/list on the largest folder, and save -> list_changed in dev on it.
// Usage: node bench/scale.mjs [--sizes 10,100,1000] [--rounds 3] [--edits 30] [--json]
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { percentile } from "./stats.mjs";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = join(REPO_ROOT, "dist", "cli", "main.js");
const VERSION = "2025-11-25";

const tsTool = (i, version = 0) => `import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  description: "Scale tool ${i}, version ${version}",
  input: { message: z.string().describe("Any text"), times: z.number().int().optional() },
  handler: ({ message, times }) => message.repeat(times ?? 1),
});
`;

const mjsTool = (i) => `import { z } from "zod";

export default {
  name: "tool-${i}",
  description: "Scale tool ${i}, version 0",
  input: z.object({ message: z.string().describe("Any text"), times: z.number().int().optional() }),
  handler: ({ message, times }) => message.repeat(times ?? 1),
};
`;

/**
 * The floor: import every .mjs definition (together, as plain Node does best),
 * convert its schema, answer tools/list by hand.
 */
const FLOOR_SERVER = `import { readdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { z } from "zod";
const dir = new URL("./tools/", import.meta.url);
const files = readdirSync(dir).sort();
const modules = await Promise.all(files.map((file) => import(new URL(file, dir).href)));
const tools = modules.map(({ default: d }) => ({ name: d.name, description: d.description, inputSchema: z.toJSONSchema(d.input, { io: "input" }) }));
const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\\n");
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.method === "initialize") answer(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "floor", version: "0" } });
  else if (m.method === "tools/list") answer(m.id, { tools });
}
`;

function linkPackages(dir) {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scale", type: "module" }));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(REPO_ROOT, join(dir, "node_modules", "mcp-dir"), "dir");
  symlinkSync(join(REPO_ROOT, "node_modules", "zod"), join(dir, "node_modules", "zod"), "dir");
}

function makeFolders(root, size) {
  const ts = join(root, `ts-${size}`);
  const mjs = join(root, `mjs-${size}`);
  for (const [dir, source, ext] of [
    [ts, tsTool, "ts"],
    [mjs, mjsTool, "mjs"],
  ]) {
    mkdirSync(join(dir, "tools"), { recursive: true });
    linkPackages(dir);
    for (let i = 0; i < size; i++) writeFileSync(join(dir, "tools", `tool-${i}.${ext}`), source(i));
  }
  writeFileSync(join(mjs, "floor.mjs"), FLOOR_SERVER);
  return { ts, mjs };
}

/** A newline-delimited JSON-RPC client of a spawned server. */
function start(command, args, env = {}) {
  const child = spawn(command, args, {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const spawnedAt = performance.now();
  const waiters = new Map();
  const listeners = new Set();
  let buffered = "";
  let stderr = "";
  let nextId = 1;
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const message = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (message.id !== undefined) waiters.get(message.id)?.(message);
      else for (const listener of listeners) listener(message);
      newline = buffered.indexOf("\n");
    }
  });
  const exited = new Promise((_, reject) =>
    child.once("exit", (code) =>
      reject(new Error(`${args.join(" ")} exited ${code}: ${stderr.slice(-2000)}`)),
    ),
  );
  exited.catch(() => {});
  const request = (method, params) => {
    const id = nextId++;
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return Promise.race([
      new Promise((resolve, reject) =>
        waiters.set(id, (m) =>
          m.error ? reject(new Error(JSON.stringify(m.error))) : resolve(m.result),
        ),
      ),
      exited,
    ]);
  };
  return {
    spawnedAt,
    request,
    notify: (method) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`),
    onNotification: (listener) => listeners.add(listener),
    stderr: () => stderr,
    close: () => {
      child.stdin.end();
      child.kill();
    },
  };
}

/** Every page of tools/list; checks the count. */
async function listAll(server, expected) {
  const tools = [];
  let cursor;
  do {
    const page = await server.request("tools/list", cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  if (tools.length !== expected)
    throw new Error(`tools/list gave ${tools.length} tools, ${expected} expected`);
  return tools;
}

/** ms from spawn to the first complete tools/list (initialize written at once). */
async function firstList(command, args, expected, env) {
  const server = start(command, args, env);
  try {
    await server.request("initialize", {
      protocolVersion: VERSION,
      capabilities: {},
      clientInfo: { name: "scale-bench", version: "1" },
    });
    server.notify("notifications/initialized");
    await listAll(server, expected);
    return performance.now() - server.spawnedAt;
  } finally {
    server.close();
  }
}

const median = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

async function timeSaves(dir, size, edits) {
  const dev = start(process.execPath, [CLI, "dev", dir]);
  try {
    await dev.request("initialize", {
      protocolVersion: VERSION,
      capabilities: {},
      clientInfo: { name: "scale-bench", version: "1" },
    });
    dev.notify("notifications/initialized");
    await listAll(dev, size);
    while (!dev.stderr().includes("mcp-dir dev: watching"))
      await new Promise((r) => setTimeout(r, 20));
    const latencies = [];
    for (let version = 1; version <= edits; version++) {
      await new Promise((r) => setTimeout(r, 100));
      const changed = new Promise((resolve) =>
        dev.onNotification(
          (m) => m.method === "notifications/tools/list_changed" && resolve(performance.now()),
        ),
      );
      const savedAt = performance.now();
      writeFileSync(join(dir, "tools", "tool-0.ts"), tsTool(0, version));
      latencies.push((await changed) - savedAt);
    }
    return latencies;
  } finally {
    dev.close();
  }
}

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10,100,1000" },
    rounds: { type: "string", default: "3" },
    edits: { type: "string", default: "30" },
    json: { type: "boolean" },
  },
});
const sizes = values.sizes.split(",").map(Number);
const rounds = Number(values.rounds);
const log = (line) => process.stderr.write(`${line}\n`);
const root = mkdtempSync(join(tmpdir(), "mcp-dir-bench-scale-"));
const report = { node: process.version, rounds, sizes: [] };
try {
  for (const size of sizes) {
    const { ts, mjs } = makeFolders(root, size);
    const out = join(root, `bundle-${size}`);
    const built = spawnSync(process.execPath, [CLI, "build", ts, "--out", out], {
      encoding: "utf8",
    });
    if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
    // One unmeasured start fills tsx's cache: the warm rows read it.
    await firstList(process.execPath, [CLI, "serve", ts], size);
    const rows = {
      floor: () => firstList(process.execPath, [join(mjs, "floor.mjs")], size),
      "serve (warm cache)": () => firstList(process.execPath, [CLI, "serve", ts], size),
      "serve (no cache)": () =>
        firstList(process.execPath, [CLI, "serve", ts], size, { TSX_DISABLE_CACHE: "1" }),
      // tsx's cache on, its folder new and empty (os.tmpdir()/tsx-<uid>): a fresh container's first start.
      "serve (empty cache)": () =>
        firstList(process.execPath, [CLI, "serve", ts], size, {
          TMPDIR: mkdtempSync(join(root, "tmp-")),
        }),
      "dev (warm cache)": () => firstList(process.execPath, [CLI, "dev", ts], size),
      "dev (no cache)": () =>
        firstList(process.execPath, [CLI, "dev", ts], size, { TSX_DISABLE_CACHE: "1" }),
      "built bundle": () => firstList(process.execPath, [join(out, "server.mjs")], size),
    };
    const result = { size, ms: {} };
    for (let round = 0; round < rounds; round++) {
      for (const [name, run] of Object.entries(rows)) {
        result.ms[name] ??= [];
        result.ms[name].push(await run());
      }
    }
    for (const name of Object.keys(rows)) result.ms[name] = median(result.ms[name]);
    log(
      `${size} tools: ${Object.entries(result.ms)
        .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
        .join(", ")}`,
    );
    if (size === Math.max(...sizes)) {
      const server = start(process.execPath, [CLI, "serve", ts]);
      await server.request("initialize", {
        protocolVersion: VERSION,
        capabilities: {},
        clientInfo: { name: "scale-bench", version: "1" },
      });
      server.notify("notifications/initialized");
      await listAll(server, size);
      const listMs = [];
      for (let i = 0; i < 20; i++) {
        const at = performance.now();
        await listAll(server, size);
        listMs.push(performance.now() - at);
      }
      server.close();
      result.listAllMs = median(listMs);
      result.saveToListChangedMs = median(await timeSaves(ts, size, Number(values.edits)));
      log(
        `${size} tools: every tools/list page ${result.listAllMs.toFixed(1)} ms; dev save -> list_changed p50 ${result.saveToListChangedMs.toFixed(1)} ms`,
      );
    }
    report.sizes.push(result);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

if (values.json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const names = Object.keys(report.sizes[0].ms);
  const lines = [`first tools/list after spawn, median of ${rounds} (node ${report.node})`, ""];
  lines.push(["tools", ...names.map((n) => n.padStart(20))].join(" "));
  for (const { size, ms } of report.sizes) {
    lines.push(
      [
        String(size).padStart(5),
        ...names.map((n) =>
          `${ms[n].toFixed(0)} ms (${(ms[n] / ms.floor).toFixed(2)}x)`.padStart(20),
        ),
      ].join(" "),
    );
  }
  const largest = report.sizes.at(-1);
  if (largest.listAllMs !== undefined) {
    lines.push(
      "",
      `${largest.size} tools: all tools/list pages ${largest.listAllMs.toFixed(1)} ms; dev save -> list_changed p50 ${largest.saveToListChangedMs.toFixed(1)} ms`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
