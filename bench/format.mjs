// Renders benchmark results (as built by run.mjs) as a plain-text report.

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** A text table; the first `textColumns` columns are left-aligned, the rest right-aligned. */
function table(header, rows, textColumns = 1) {
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...rows.map((row) => row[i].length)),
  );
  const line = (cells) =>
    cells
      .map((cell, i) => (i < textColumns ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join("  ");
  return [
    line(header),
    widths.map((width) => "-".repeat(width)).join("  "),
    ...rows.map(line),
  ].join("\n");
}

export function formatReport(report) {
  const { title, modes, setup, config, environment, results, ratios, aboveFloor, skipped } = report;
  const lines = [
    `${title} (node ${environment.node}, ${environment.cpus} CPUs)`,
    `${setup}; median of ${config.rounds} round(s)`,
    "",
    table(
      ["server", "mode", "calls/s", "p50 (µs)", "p99 (µs)", "server CPU/call (µs)"],
      results.map((r) => [
        r.server,
        r.mode,
        integer.format(r.callsPerSec),
        decimal.format(r.p50Us),
        decimal.format(r.p99Us),
        Number.isNaN(r.cpuUsPerCall) ? "n/a" : decimal.format(r.cpuUsPerCall),
      ]),
      2,
    ),
    "",
    table(
      ["throughput ratio", ...modes],
      Object.entries(ratios).map(([pair, byMode]) => [
        pair,
        ...modes.map((mode) => (byMode === null ? "n/a" : `${byMode[mode].toFixed(2)}x`)),
      ]),
    ),
  ];
  const aboveRows = Object.entries(aboveFloor ?? {});
  if (aboveRows.length > 0) {
    lines.push(
      "",
      table(
        ["server CPU/call above its era's floor (µs)", ...modes],
        aboveRows.map(([server, byMode]) => [
          server,
          ...modes.map((mode) =>
            Number.isNaN(byMode[mode]) ? "n/a" : decimal.format(byMode[mode]),
          ),
        ]),
      ),
    );
  }
  for (const { server, reason } of skipped) lines.push("", `skipped ${server}: ${reason}`);
  return lines.join("\n");
}
