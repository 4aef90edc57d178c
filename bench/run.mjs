// Runs the echo benchmarks for the floor, the official SDK and mcp-dir in one go,
// over stdio and over Streamable HTTP, and the `mcp-dir dev` benchmark.
// Usage: node bench/run.mjs [--suite stdio|http|dev|all] [--quick] [--json] [--rounds N]
//                           [--only floor,sdk,mcp-dir,sdk-v2@2026,mcp-dir@2026]
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { benchmarkDev } from "./dev/driver.mjs";
import { checkGoals, formatDevReport } from "./dev/format.mjs";
import { formatReport } from "./format.mjs";
import { benchmarkServer as benchmarkHttp } from "./http/driver.mjs";
import { median } from "./stats.mjs";
import { benchmarkServer as benchmarkStdio } from "./stdio/driver.mjs";

const MCP_DIR_NEEDS = { needs: "../dist/index.js", hint: "run `npm run build`" };

const SUITES = {
  stdio: {
    title: "stdio echo benchmark",
    benchmark: benchmarkStdio,
    modes: ["sequential", "pipelined"],
    describe: (config) =>
      `warmup ${config.warmup}, sequential ${config.sequential}, pipelined ${config.pipelined} ` +
      `(depth ${config.depth})`,
    servers: [
      { name: "floor", entry: "stdio/floor-echo.mjs" },
      { name: "sdk", entry: "stdio/sdk-server.mjs" },
      { name: "mcp-dir", entry: "stdio/mcp-dir-server.mjs", ...MCP_DIR_NEEDS },
      { name: "floor@2026", entry: "stdio/floor-echo.mjs", era: "2026" },
      { name: "sdk-v2@2026", entry: "stdio/sdk-v2-server.mjs", era: "2026" },
      { name: "mcp-dir@2026", entry: "stdio/mcp-dir-server.mjs", era: "2026", ...MCP_DIR_NEEDS },
      { name: "mcp-dir+3mw", entry: "stdio/mcp-dir-middleware-server.mjs", ...MCP_DIR_NEEDS },
    ],
    profiles: {
      full: { warmup: 2_000, sequential: 5_000, pipelined: 50_000, depth: 64, rounds: 5 },
      quick: { warmup: 2_000, sequential: 1_000, pipelined: 20_000, depth: 64, rounds: 3 },
    },
  },
  http: {
    title: "Streamable HTTP echo benchmark",
    benchmark: benchmarkHttp,
    modes: ["sequential", "concurrent"],
    describe: (config) =>
      `warmup ${config.warmup}, sequential ${config.sequential}, concurrent ${config.concurrent} ` +
      `(concurrency ${config.concurrency})`,
    servers: [
      { name: "floor", entry: "http/floor-echo.mjs" },
      { name: "sdk", entry: "http/sdk-server.mjs" },
      { name: "mcp-dir", entry: "http/mcp-dir-server.mjs", ...MCP_DIR_NEEDS },
      { name: "floor@2026", entry: "http/floor-echo.mjs", era: "2026" },
      { name: "sdk-v2@2026", entry: "http/sdk-v2-server.mjs", era: "2026" },
      { name: "mcp-dir@2026", entry: "http/mcp-dir-server.mjs", era: "2026", ...MCP_DIR_NEEDS },
      { name: "mcp-dir+3mw", entry: "http/mcp-dir-middleware-server.mjs", ...MCP_DIR_NEEDS },
      { name: "mcp-dir+jwt", entry: "http/mcp-dir-jwt-server.mjs", ...MCP_DIR_NEEDS },
    ],
    profiles: {
      full: { warmup: 2_000, sequential: 2_000, concurrent: 20_000, concurrency: 32, rounds: 5 },
      quick: { warmup: 1_000, sequential: 500, concurrent: 5_000, concurrency: 32, rounds: 3 },
    },
  },
  // One `mcp-dir dev` run: its numbers are distributions already (--rounds and --only do
  // not apply). See bench/dev/driver.mjs.
  dev: {
    title: "mcp-dir dev benchmark",
    run: runDevSuite,
    format: formatDevReport,
    describe: (config) =>
      `10 tool files; ${config.startups} startups; ${config.edits} timed saves of one file ` +
      `(${config.editGapMs} ms apart), ${config.reloads} reloads of it in all; ` +
      `memory read after ${config.idleMs} ms idle` +
      (config.settleMs > 0 ? `, then the lowest in ${config.settleMs} ms more` : ""),
    profiles: {
      full: {
        startups: 10,
        edits: 200,
        reloads: 1_000,
        editGapMs: 100,
        idleMs: 2_000,
        settleMs: 30_000,
      },
      quick: {
        startups: 3,
        edits: 50,
        reloads: 200,
        editGapMs: 100,
        idleMs: 1_000,
        settleMs: 0,
      },
    },
  },
};

/** `@2026` rows speak 2026-07-28 (every call carries its _meta); the others 2025-11-25. */
const RATIOS = [
  ["mcp-dir", "floor"],
  ["sdk", "floor"],
  ["mcp-dir", "sdk"],
  ["mcp-dir@2026", "floor@2026"],
  ["mcp-dir@2026", "mcp-dir"],
  ["mcp-dir@2026", "sdk-v2@2026"],
  ["mcp-dir+3mw", "mcp-dir"],
  ["mcp-dir+jwt", "mcp-dir"],
];

/**
 * The server CPU each server spends per call above the floor of its own era: the
 * work the framework adds, apart from the bytes its era's messages carry.
 */
const ABOVE_FLOOR = [
  ["mcp-dir", "floor"],
  ["sdk", "floor"],
  ["mcp-dir@2026", "floor@2026"],
  ["sdk-v2@2026", "floor@2026"],
  ["mcp-dir+3mw", "mcp-dir"],
  ["mcp-dir+jwt", "mcp-dir"],
];

const TIMEOUT_MS = 120_000;

const resolveBench = (relative) => fileURLToPath(new URL(relative, import.meta.url));

function parseOptions() {
  const { values } = parseArgs({
    options: {
      suite: { type: "string", default: "all" },
      quick: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      rounds: { type: "string" },
      only: { type: "string" },
    },
  });
  const suiteNames = Object.keys(SUITES);
  const suites = values.suite === "all" ? suiteNames : [values.suite];
  if (!suiteNames.includes(suites[0])) {
    throw new Error(`--suite: unknown suite ${values.suite}; known: ${suiteNames.join(", ")}, all`);
  }
  const names = [
    ...new Set(
      [SUITES.stdio, SUITES.http].flatMap((suite) => suite.servers.map((server) => server.name)),
    ),
  ];
  const only = values.only?.split(",").map((name) => name.trim()) ?? names;
  const unknown = only.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new Error(`--only: unknown server(s) ${unknown.join(", ")}; known: ${names.join(", ")}`);
  }
  let rounds;
  if (values.rounds !== undefined) {
    rounds = Number(values.rounds);
    if (!Number.isInteger(rounds) || rounds < 1) {
      throw new Error(`--rounds must be a positive integer, got ${values.rounds}`);
    }
  }
  const configFor = (suite) => {
    const config = { ...(values.quick ? suite.profiles.quick : suite.profiles.full) };
    if (rounds !== undefined) config.rounds = rounds;
    return config;
  };
  return { suites, configFor, json: values.json, only };
}

/** Runs every available server once per round, rotating the order each round. */
async function collect(suite, servers, config) {
  const samples = new Map(servers.map((server) => [server.name, []]));
  for (let round = 0; round < config.rounds; round++) {
    const order = servers.map((_, i) => servers[(i + round) % servers.length]);
    for (const server of order) {
      const result = await suite.benchmark({
        ...config,
        era: server.era ?? "2025",
        entry: resolveBench(server.entry),
        timeoutMs: TIMEOUT_MS,
      });
      samples.get(server.name).push(result);
      console.error(
        `${suite.name} round ${round + 1}/${config.rounds} ${server.name}: ` +
          suite.modes
            .map((mode) => `${mode} ${Math.round(result[mode].callsPerSec)} calls/s`)
            .join(", "),
      );
    }
  }
  return samples;
}

function summarize(samples, modes) {
  const results = [];
  for (const [server, runs] of samples) {
    for (const mode of modes) {
      const metric = (key) => median(runs.map((run) => run[mode][key]));
      results.push({
        server,
        mode,
        callsPerSec: metric("callsPerSec"),
        p50Us: metric("p50Us"),
        p99Us: metric("p99Us"),
        cpuUsPerCall: metric("cpuUsPerCall"),
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
      ? Object.fromEntries(modes.map((mode) => [mode, throughput(a, mode) / throughput(b, mode)]))
      : null;
  }
  const cpu = (server, mode) =>
    results.find((r) => r.server === server && r.mode === mode)?.cpuUsPerCall;
  const aboveFloor = {};
  for (const [server, floor] of ABOVE_FLOOR) {
    if (!samples.has(server) || !samples.has(floor)) continue;
    aboveFloor[server] = Object.fromEntries(
      modes.map((mode) => [mode, cpu(server, mode) - cpu(floor, mode)]),
    );
  }
  return { results, ratios, aboveFloor };
}

async function runSuite(name, config, only) {
  const suite = { name, ...SUITES[name] };
  const available = [];
  const skipped = [];
  for (const server of suite.servers.filter(({ name }) => only.includes(name))) {
    if (server.needs === undefined || existsSync(resolveBench(server.needs))) {
      available.push(server);
    } else {
      const missing = server.needs.replace("../", "");
      skipped.push({ server: server.name, reason: `${missing} not found (${server.hint})` });
    }
  }
  for (const { server, reason } of skipped) console.error(`skipping ${server}: ${reason}`);

  const samples = await collect(suite, available, config);
  return {
    title: suite.title,
    modes: suite.modes,
    setup: suite.describe(config),
    environment: { node: process.version, cpus: availableParallelism() },
    config,
    ...summarize(samples, suite.modes),
    skipped,
  };
}

async function runDevSuite(name, config) {
  const suite = SUITES[name];
  if (!existsSync(resolveBench("../dist/cli/main.js"))) {
    throw new Error("dist/cli/main.js not found (run `npm run build`)");
  }
  const result = await benchmarkDev({
    ...config,
    timeoutMs: 600_000,
    log: (line) => console.error(`${name}: ${line}`),
  });
  return {
    title: suite.title,
    setup: suite.describe(config),
    environment: { node: process.version, cpus: availableParallelism() },
    config,
    result,
    goals: checkGoals(result),
  };
}

async function main() {
  const { suites, configFor, json, only } = parseOptions();
  const reports = {};
  for (const name of suites) {
    const suite = SUITES[name];
    reports[name] = await (suite.run ?? runSuite)(name, configFor(suite), only);
  }
  if (json) {
    console.log(JSON.stringify(suites.length === 1 ? reports[suites[0]] : reports, null, 2));
  } else {
    const text = Object.entries(reports).map(([name, report]) =>
      (SUITES[name].format ?? formatReport)(report),
    );
    console.log(text.join("\n\n"));
  }
}

try {
  await main();
} catch (error) {
  console.error(`benchmark failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
