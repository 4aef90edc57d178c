// Runs the stdio echo benchmark for the floor, the official SDK and mcp-dir in one go.
// Usage: node bench/run.mjs [--quick] [--json] [--rounds N] [--only floor,sdk,mcp-dir]
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatReport } from "./format.mjs";
import { benchmarkServer } from "./stdio/driver.mjs";

const SERVERS = [
  { name: "floor", entry: "stdio/floor-echo.mjs" },
  { name: "sdk", entry: "stdio/sdk-server.mjs" },
  {
    name: "mcp-dir",
    entry: "stdio/mcp-dir-server.mjs",
    needs: "../dist/index.js",
    hint: "run `npm run build`",
  },
];

const RATIOS = [
  ["mcp-dir", "floor"],
  ["sdk", "floor"],
  ["mcp-dir", "sdk"],
];

const MODES = ["sequential", "pipelined"];

const PROFILES = {
  full: { warmup: 2_000, sequential: 5_000, pipelined: 50_000, depth: 64, rounds: 5 },
  quick: { warmup: 2_000, sequential: 1_000, pipelined: 20_000, depth: 64, rounds: 3 },
};

const TIMEOUT_MS = 120_000;

const resolveBench = (relative) => fileURLToPath(new URL(relative, import.meta.url));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      rounds: { type: "string" },
      only: { type: "string" },
    },
  });
  const names = SERVERS.map((server) => server.name);
  const only = values.only?.split(",").map((name) => name.trim()) ?? names;
  const unknown = only.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new Error(`--only: unknown server(s) ${unknown.join(", ")}; known: ${names.join(", ")}`);
  }
  const config = { ...(values.quick ? PROFILES.quick : PROFILES.full) };
  if (values.rounds !== undefined) {
    config.rounds = Number(values.rounds);
    if (!Number.isInteger(config.rounds) || config.rounds < 1) {
      throw new Error(`--rounds must be a positive integer, got ${values.rounds}`);
    }
  }
  return { config, json: values.json, only };
}

/** Runs every available server once per round, rotating the order each round. */
async function collect(servers, config) {
  const samples = new Map(servers.map((server) => [server.name, []]));
  for (let round = 0; round < config.rounds; round++) {
    const order = servers.map((_, i) => servers[(i + round) % servers.length]);
    for (const server of order) {
      const result = await benchmarkServer({
        ...config,
        entry: resolveBench(server.entry),
        timeoutMs: TIMEOUT_MS,
      });
      samples.get(server.name).push(result);
      console.error(
        `round ${round + 1}/${config.rounds} ${server.name}: ` +
          MODES.map((mode) => `${mode} ${Math.round(result[mode].callsPerSec)} calls/s`).join(", "),
      );
    }
  }
  return samples;
}

function summarize(samples) {
  const results = [];
  for (const [server, runs] of samples) {
    for (const mode of MODES) {
      const metric = (key) => median(runs.map((run) => run[mode][key]));
      results.push({
        server,
        mode,
        callsPerSec: metric("callsPerSec"),
        p50Us: metric("p50Us"),
        p99Us: metric("p99Us"),
        roundsCallsPerSec: runs.map((run) => run[mode].callsPerSec),
      });
    }
  }
  const throughput = (server, mode) =>
    results.find((r) => r.server === server && r.mode === mode)?.callsPerSec;
  const ratios = {};
  for (const [a, b] of RATIOS) {
    const available = samples.has(a) && samples.has(b);
    ratios[`${a} / ${b}`] = available
      ? Object.fromEntries(MODES.map((mode) => [mode, throughput(a, mode) / throughput(b, mode)]))
      : null;
  }
  return { results, ratios };
}

async function main() {
  const { config, json, only } = parseOptions();
  const available = [];
  const skipped = [];
  for (const server of SERVERS.filter(({ name }) => only.includes(name))) {
    if (server.needs === undefined || existsSync(resolveBench(server.needs))) {
      available.push(server);
    } else {
      const missing = server.needs.replace("../", "");
      skipped.push({ server: server.name, reason: `${missing} not found (${server.hint})` });
    }
  }
  for (const { server, reason } of skipped) console.error(`skipping ${server}: ${reason}`);

  const samples = await collect(available, config);
  const report = {
    environment: { node: process.version, cpus: availableParallelism() },
    config,
    ...summarize(samples),
    skipped,
  };
  console.log(json ? JSON.stringify(report, null, 2) : formatReport(report));
}

try {
  await main();
} catch (error) {
  console.error(`benchmark failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
