// The 2026-07-28 path against the 2025-11-25 path of one server, round by round:
// each round runs both eras back to back (in alternating order) and keeps their
// ratio, so a machine that slows down for a while slows both halves of a pair.
// The floor is measured the same way: its ratio is what the protocol's own bytes
// cost, which no server can avoid.
// Usage: node bench/era-pairs.mjs [--suite stdio|http] [--rounds N] [--json]
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { benchmarkServer as benchmarkHttp } from "./http/driver.mjs";
import { median } from "./stats.mjs";
import { benchmarkServer as benchmarkStdio } from "./stdio/driver.mjs";

const SUITES = {
  stdio: {
    benchmark: benchmarkStdio,
    mode: "pipelined",
    config: { warmup: 2_000, sequential: 100, pipelined: 30_000, depth: 64 },
  },
  http: {
    benchmark: benchmarkHttp,
    mode: "concurrent",
    config: { warmup: 1_000, sequential: 100, concurrent: 10_000, concurrency: 32 },
  },
};
const SERVERS = ["floor-echo.mjs", "mcp-dir-server.mjs"];

async function pairs(suite, entry, rounds) {
  const { benchmark, mode, config } = SUITES[suite];
  const runs = [];
  for (let round = 0; round < rounds; round++) {
    const pair = {};
    for (const era of round % 2 === 0 ? ["2025", "2026"] : ["2026", "2025"]) {
      pair[era] = (await benchmark({ ...config, entry, era }))[mode];
    }
    runs.push(pair);
    console.error(
      `${suite} ${entry.split("/").pop()} round ${round + 1}/${rounds}: ` +
        `2026/2025 ${(pair["2026"].callsPerSec / pair["2025"].callsPerSec).toFixed(2)}`,
    );
  }
  const of = (era, key) => median(runs.map((run) => run[era][key]));
  return {
    ratio: median(runs.map((run) => run["2026"].callsPerSec / run["2025"].callsPerSec)),
    callsPerSec: { 2025: of("2025", "callsPerSec"), 2026: of("2026", "callsPerSec") },
    cpuUsPerCall: { 2025: of("2025", "cpuUsPerCall"), 2026: of("2026", "cpuUsPerCall") },
  };
}

const { values } = parseArgs({
  options: {
    suite: { type: "string", default: "stdio" },
    rounds: { type: "string", default: "8" },
    json: { type: "boolean", default: false },
  },
});
if (!(values.suite in SUITES))
  throw new Error(`--suite must be stdio or http, got ${values.suite}`);
if (!existsSync(fileURLToPath(new URL("../dist/index.js", import.meta.url)))) {
  throw new Error("dist/index.js not found (run `npm run build`)");
}
const report = {};
for (const server of SERVERS) {
  const entry = fileURLToPath(new URL(`./${values.suite}/${server}`, import.meta.url));
  report[server.replace(/(-echo|-server)\.mjs$/, "")] = await pairs(
    values.suite,
    entry,
    Number(values.rounds),
  );
}
if (values.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log(`${values.suite}: 2026-07-28 against 2025-11-25, median of ${values.rounds} pairs`);
  for (const [server, { ratio, callsPerSec, cpuUsPerCall }] of Object.entries(report)) {
    console.log(
      `${server.padEnd(8)} calls/s 2026/2025 ${ratio.toFixed(2)}x ` +
        `(${Math.round(callsPerSec[2026])} vs ${Math.round(callsPerSec[2025])}); ` +
        `server CPU/call ${cpuUsPerCall[2026].toFixed(1)} vs ${cpuUsPerCall[2025].toFixed(1)} µs`,
    );
  }
}
