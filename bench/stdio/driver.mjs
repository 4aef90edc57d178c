// Drives one stdio MCP server: spawn it, handshake, warm up, then time echo calls
// sequentially (one in flight) and pipelined (`depth` in flight). Every response is
// checked; any error, mismatch, stray output or early exit fails the whole run.
import { spawn } from "node:child_process";
import { CPU_PROBE_ARGS, echoParams, initializeParams, withCpu } from "../era.mjs";
import { summarize } from "../stats.mjs";

const STDERR_TAIL_CHARS = 4000;

/** Children still running, killed if this process exits before cleaning up. */
const liveChildren = new Set();
process.on("exit", () => {
  for (const child of liveChildren) child.kill();
});

/** A newline-delimited JSON-RPC client over a child's stdin/stdout. */
class Connection {
  #child;
  #pending = new Map();
  #nextId = 1;
  #buffered = "";
  #stderrTail = "";
  #closed = false;
  #reject;

  constructor(child) {
    this.#child = child;
    /** Rejects on the first failure; never resolves. */
    this.failed = new Promise((_, reject) => {
      this.#reject = reject;
    });
    this.failed.catch(() => {});

    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => this.#onData(chunk));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      this.#stderrTail = (this.#stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.stdin.on("error", (error) => this.fail(error));
    child.on("error", (error) => this.fail(error));
    child.on("exit", (code, signal) => {
      this.fail(new Error(`server exited early (code ${code}, signal ${signal})`));
    });
  }

  /** Sends a request; `onResult` gets the result and may throw to fail the run. */
  send(method, params, onResult) {
    const id = this.#nextId++;
    this.#pending.set(id, onResult);
    this.#write({ jsonrpc: "2.0", id, method, params });
  }

  request(method, params) {
    return new Promise((resolve) => this.send(method, params, resolve));
  }

  notify(method, params) {
    this.#write({ jsonrpc: "2.0", method, params });
  }

  fail(error) {
    if (this.#closed) return;
    if (this.#stderrTail.trim() !== "") {
      error.message += `\n--- server stderr (tail) ---\n${this.#stderrTail.trimEnd()}`;
    }
    this.close();
    this.#reject(error);
  }

  close() {
    this.#closed = true;
    this.#child.kill();
    liveChildren.delete(this.#child);
  }

  #write(message) {
    if (!this.#closed) this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  #onData(chunk) {
    this.#buffered += chunk;
    // Batch the follow-up requests a chunk of responses triggers into one write.
    this.#child.stdin.cork();
    try {
      let newline = this.#buffered.indexOf("\n");
      while (newline !== -1 && !this.#closed) {
        const line = this.#buffered.slice(0, newline);
        this.#buffered = this.#buffered.slice(newline + 1);
        if (line.trim() !== "") this.#onMessage(line);
        newline = this.#buffered.indexOf("\n");
      }
    } catch (error) {
      this.fail(error);
    } finally {
      this.#child.stdin.uncork();
    }
  }

  #onMessage(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      throw new Error(`server wrote a line that is not JSON: ${line.slice(0, 200)}`);
    }
    if (message.method !== undefined) {
      if (message.id === undefined) return; // server notification (e.g. logging)
      throw new Error(`unexpected server request: ${line.slice(0, 200)}`);
    }
    const onResult = this.#pending.get(message.id);
    if (onResult === undefined) {
      throw new Error(`response with unknown id: ${line.slice(0, 200)}`);
    }
    this.#pending.delete(message.id);
    if (message.error !== undefined) {
      throw new Error(`error response to id ${message.id}: ${JSON.stringify(message.error)}`);
    }
    onResult(message.result);
  }
}

function checkEcho(result, expected) {
  const item = result?.content?.[0];
  if (result?.isError || item?.type !== "text" || item.text !== expected) {
    throw new Error(
      `bad echo result, expected ${JSON.stringify(expected)}: ${JSON.stringify(result)}`,
    );
  }
}

/** Makes `count` echo calls with at most `depth` in flight; returns raw timings. */
function timeCalls(connection, count, depth, era) {
  return new Promise((resolve) => {
    const latenciesNs = new Float64Array(count);
    let sent = 0;
    let done = 0;
    const began = process.hrtime.bigint();

    const sendNext = () => {
      const index = sent++;
      const message = `hello #${index}`;
      const start = process.hrtime.bigint();
      connection.send("tools/call", echoParams(era, message), (result) => {
        latenciesNs[index] = Number(process.hrtime.bigint() - start);
        checkEcho(result, message);
        done++;
        if (sent < count) sendNext();
        else if (done === count) {
          resolve({ latenciesNs, elapsedNs: Number(process.hrtime.bigint() - began) });
        }
      });
    };

    for (let i = 0; i < Math.min(depth, count); i++) sendNext();
  });
}

async function handshake(connection) {
  const result = await connection.request("initialize", initializeParams());
  if (typeof result?.protocolVersion !== "string") {
    throw new Error(`bad initialize result: ${JSON.stringify(result)}`);
  }
  connection.notify("notifications/initialized");
}

/**
 * Benchmarks the stdio server whose entry is the file `entry` (run with this Node),
 * speaking `era` ("2025": initialize first; "2026": every call carries its _meta).
 * Resolves to `{ sequential, pipelined }`, each `{ calls, callsPerSec, p50Us, p99Us,
 * cpuUsPerCall }` (the server process's CPU time per call).
 */
export async function benchmarkServer({
  entry,
  era = "2025",
  warmup = 2_000,
  sequential = 5_000,
  pipelined = 50_000,
  depth = 64,
  timeoutMs = 120_000,
}) {
  const child = spawn(process.execPath, [...CPU_PROBE_ARGS, entry], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  liveChildren.add(child);
  const connection = new Connection(child);

  const measure = async () => {
    if (era === "2025") await handshake(connection);
    await timeCalls(connection, warmup, depth, era);
    const timed = (count, inFlight) =>
      withCpu(child, count, async () =>
        summarize(await timeCalls(connection, count, inFlight, era)),
      );
    const sequentialStats = await timed(sequential, 1);
    const pipelinedStats = await timed(pipelined, depth);
    return { sequential: sequentialStats, pipelined: pipelinedStats };
  };

  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([measure(), connection.failed, timeout]);
  } catch (error) {
    error.message = `${entry}: ${error.message}`;
    throw error;
  } finally {
    clearTimeout(timer);
    connection.close();
  }
}

// Standalone use: node bench/stdio/driver.mjs <server.mjs> [2025|2026]
if (process.argv[1] === import.meta.filename) {
  const [entry, era] = process.argv.slice(2);
  if (entry === undefined) {
    console.error("usage: node bench/stdio/driver.mjs <server-entry.mjs> [2025|2026]");
    process.exit(2);
  }
  console.log(JSON.stringify(await benchmarkServer({ entry, era }), null, 2));
}
