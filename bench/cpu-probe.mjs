// Preloaded into every benchmarked server (node --import): on SIGUSR2 the server
// writes its own CPU time (user + system, µs, from process.cpuUsage) to stderr.
// /proc counts in 10 ms ticks here, too coarse for a few µs per call; this is exact
// to the µs and costs the server nothing between two readings.
process.on("SIGUSR2", () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\nmcp-dir-bench-cpu ${user + system}\n`);
});
