// What the drivers need to speak either protocol era, and to read a server's CPU time.
import { readFileSync } from "node:fs";

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
  const params = { name: "echo", arguments: { message } };
  return era === "2026" ? { ...params, _meta: ENVELOPE } : params;
}

const TICKS_PER_SECOND = 100;

/**
 * User plus system CPU seconds the process `pid` has used so far, from
 * /proc/<pid>/stat (Linux); undefined where there is no /proc.
 */
export function cpuSeconds(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Runs `work` and adds the server's CPU time per call (µs) to the stats it resolves to. */
export async function withCpu(pid, calls, work) {
  const before = cpuSeconds(pid);
  const stats = await work();
  const after = cpuSeconds(pid);
  const cpuUsPerCall =
    before === undefined || after === undefined ? Number.NaN : ((after - before) * 1e6) / calls;
  return { ...stats, cpuUsPerCall };
}
