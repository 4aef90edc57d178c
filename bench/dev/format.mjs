// Renders the dev benchmark's result (as built by run.mjs) as a plain-text report,
// each number next to its goal from issue 4.

const decimal = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** The goals: a metric, its limit and its unit. */
export const DEV_GOALS = [
  { metric: "start → first tools/list, p50", value: (r) => r.startup.p50, limit: 500, unit: "ms" },
  { metric: "start → first tools/list, max", value: (r) => r.startup.max, unit: "ms" },
  { metric: "save → list_changed, p50", value: (r) => r.latency.p50, limit: 50, unit: "ms" },
  { metric: "save → list_changed, p99", value: (r) => r.latency.p99, limit: 150, unit: "ms" },
  { metric: "save → list_changed, max", value: (r) => r.latency.max, unit: "ms" },
  {
    metric: "save → list_changed on a 2026 listen stream, p50",
    value: (r) => r.listenLatency.p50,
    limit: 50,
    unit: "ms",
  },
  {
    metric: "save → list_changed on a 2026 listen stream, p99",
    value: (r) => r.listenLatency.p99,
    limit: 150,
    unit: "ms",
  },
  {
    metric: "RSS, 10 tools, idle",
    value: (r) => r.memory.atStart.rssMiB,
    limit: 120,
    unit: "MiB",
  },
  {
    metric: "RSS after the reloads, idle",
    value: (r) => r.memory.afterReloads.rssMiB,
    unit: "MiB",
  },
  {
    metric: "RSS growth over the reloads",
    value: (r) => r.memory.rssGrowthMiB,
    limit: 50,
    unit: "MiB",
  },
  {
    metric: "lowest RSS in more idle, start → after",
    value: (r) => r.memory.afterReloads.settledRssMiB,
    from: (r) => r.memory.atStart.settledRssMiB,
    unit: "MiB",
  },
  { metric: "heap used, 10 tools", value: (r) => r.memory.atStart.heapUsedMiB, unit: "MiB" },
  {
    metric: "heap used after the reloads",
    value: (r) => r.memory.afterReloads.heapUsedMiB,
    unit: "MiB",
  },
  {
    metric: "V8 young generation, start → after",
    value: (r) => r.memory.afterReloads.newSpaceMiB,
    from: (r) => r.memory.atStart.newSpaceMiB,
    unit: "MiB",
  },
];

/** Each goal with its measured value and whether it is met (undefined: no limit). */
export function checkGoals(result) {
  return DEV_GOALS.map(({ metric, value, limit, unit, from }) => {
    const measured = value(result);
    return {
      metric,
      value: measured,
      from: from?.(result),
      unit,
      limit,
      met: limit === undefined ? undefined : measured <= limit,
    };
  });
}

function table(header, rows) {
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...rows.map((row) => row[i].length)),
  );
  const line = (cells) =>
    cells
      .map((cell, i) =>
        i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]),
      )
      .join("  ")
      .trimEnd();
  return [
    line(header),
    widths.map((width) => "-".repeat(width)).join("  "),
    ...rows.map(line),
  ].join("\n");
}

export function formatDevReport(report) {
  const { title, setup, environment, goals, result } = report;
  const rows = goals.map(({ metric, value, from, unit, limit, met }) => [
    metric,
    `${from === undefined ? "" : `${decimal.format(from)} → `}${decimal.format(value)} ${unit}`,
    limit === undefined ? "" : `<= ${limit} ${unit}`,
    met === undefined ? "" : met ? "ok" : "MISSED",
  ]);
  const failed = goals.filter(({ met }) => met === false).length;
  return [
    `${title} (node ${environment.node}, ${environment.cpus} CPUs)`,
    setup,
    "",
    table(["metric", "measured", "goal", ""], rows),
    "",
    `startup ms: ${result.startup.count} runs, min ${decimal.format(result.startup.min)}, p50 ${decimal.format(result.startup.p50)}, max ${decimal.format(result.startup.max)}`,
    `save → list_changed ms: ${result.latency.count} saves, min ${decimal.format(result.latency.min)}, p50 ${decimal.format(result.latency.p50)}, p90 ${decimal.format(result.latency.p90)}, p99 ${decimal.format(result.latency.p99)}, max ${decimal.format(result.latency.max)}`,
    failed === 0 ? "every goal met" : `${failed} goal(s) missed`,
  ].join("\n");
}
