// What the drivers need to speak either protocol era, and to read a server's CPU time.

export const STATEFUL_VERSION = "2025-11-25";
export const STATELESS_VERSION = "2026-07-28";

const CLIENT_INFO = { name: "mcp-dir-bench", version: "1.0.0" };

/** The `_meta` every 2026-07-28 request carries (built once, shared by every call). */
export const ENVELOPE = Object.freeze({
  "io.modelcontextprotocol/protocolVersion": STATELESS_VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
});

/** The initialize params of a 2025 handshake. */
export function initializeParams(version = STATEFUL_VERSION) {
  return { protocolVersion: version, capabilities: {}, clientInfo: CLIENT_INFO };
}

/** The params of one echo call in `era`. */
export function echoParams(era, message) {
  // Built whole, not spread: the driver's own cost per call is part of every figure.
  return era === "2026"
    ? { name: "echo", arguments: { message }, _meta: ENVELOPE }
    : { name: "echo", arguments: { message } };
}

/** Node arguments that preload the CPU probe into a benchmarked server. */
export const CPU_PROBE_ARGS = ["--import", new URL("./cpu-probe.mjs", import.meta.url).href];

const CPU_LINE = /mcp-dir-bench-cpu (\d+)\n/;

/**
 * The CPU time (µs) the server `child` (started with CPU_PROBE_ARGS) has used so
 * far: it is asked with SIGUSR2 and answers on its stderr.
 */
function cpuMicros(child) {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk) => {
      seen += chunk;
      const match = CPU_LINE.exec(seen);
      if (!match) return;
      child.stderr.off("data", onData);
      resolve(Number(match[1]));
    };
    child.stderr.on("data", onData);
    if (!child.kill("SIGUSR2")) reject(new Error("the server is gone: no CPU reading"));
  });
}

/** Runs `work` and adds the server's CPU time per call (µs) to the stats it resolves to. */
export async function withCpu(child, calls, work) {
  const before = await cpuMicros(child);
  const stats = await work();
  const after = await cpuMicros(child);
  return { ...stats, cpuUsPerCall: (after - before) / calls };
}
