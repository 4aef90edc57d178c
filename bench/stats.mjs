// Latency statistics shared by the benchmark drivers.

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, fraction) {
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** The median of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `latenciesNs` is a Float64Array, so its sort is numeric. */
export function summarize({ latenciesNs, elapsedNs }) {
  const sorted = latenciesNs.slice().sort();
  return {
    calls: sorted.length,
    callsPerSec: sorted.length / (elapsedNs / 1e9),
    p50Us: percentile(sorted, 0.5) / 1000,
    p99Us: percentile(sorted, 0.99) / 1000,
  };
}
