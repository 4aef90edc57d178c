// Drives one Streamable HTTP MCP server: spawn it, read the URL it prints, handshake,
// warm up, then time echo calls sequentially (one in flight) and concurrently
// (`concurrency` in flight over as many keep-alive connections). Every response is
// checked, whether it comes as JSON or as an SSE stream; any error, mismatch or early
// exit fails the whole run.
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import {
  CPU_PROBE_ARGS,
  echoParams,
  initializeParams,
  STATEFUL_VERSION,
  STATELESS_VERSION,
  withCpu,
} from "../era.mjs";
import { summarize } from "../stats.mjs";

const STDERR_TAIL_CHARS = 4000;

/** Children still running, killed if this process exits before cleaning up. */
const liveChildren = new Set();
process.on("exit", () => {
  for (const child of liveChildren) child.kill();
});

/**
 * Starts the server and resolves to what it prints as its first line: its URL, and,
 * after a space, the bearer token to send when it wants one.
 */
function startServer(entry) {
  const child = spawn(process.execPath, [...CPU_PROBE_ARGS, entry], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  liveChildren.add(child);
  let stderrTail = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const stop = () => {
    child.kill();
    liveChildren.delete(child);
  };
  const explain = (error) => {
    if (!error.serverStderr && stderrTail.trim() !== "") {
      error.serverStderr = true;
      error.message += `\n--- server stderr (tail) ---\n${stderrTail.trimEnd()}`;
    }
    return error;
  };
  let rejectExit;
  const exited = new Promise((_, reject) => {
    rejectExit = reject;
  });
  exited.catch(() => {});
  child.on("exit", (code, signal) => {
    rejectExit(explain(new Error(`server exited early (code ${code}, signal ${signal})`)));
  });
  const url = new Promise((resolve, reject) => {
    let stdout = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const newline = stdout.indexOf("\n");
      if (newline !== -1) resolve(stdout.slice(0, newline).trim());
    });
    exited.catch(reject);
  });
  return { url, exited, stop, explain, child };
}

/** JSON-RPC over POST with keep-alive connections; reads JSON or SSE answers. */
class HttpClient {
  #url;
  #agent;
  #sessionId;
  #nextId = 1;

  #era;

  #authorization;

  constructor(url, connections, era, token) {
    this.#era = era;
    this.#url = new URL(url);
    if (token !== undefined) this.#authorization = `Bearer ${token}`;
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  /** Sends one message; resolves to the response to `id` (undefined for a notification). */
  post(message) {
    const body = JSON.stringify(message);
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": Buffer.byteLength(body),
      "mcp-protocol-version": this.#era === "2026" ? STATELESS_VERSION : STATEFUL_VERSION,
    };
    if (this.#era === "2026" && message.method !== undefined) {
      // The request headers 2026-07-28 requires, mirrored from the body.
      headers["mcp-method"] = message.method;
      const name = message.params?.name ?? message.params?.uri;
      if (name !== undefined) headers["mcp-name"] = name;
    }
    if (this.#sessionId) headers["mcp-session-id"] = this.#sessionId;
    if (this.#authorization) headers.authorization = this.#authorization;
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.#url.hostname,
          port: this.#url.port,
          path: this.#url.pathname,
          method: "POST",
          headers,
          agent: this.#agent,
        },
        (res) => {
          const chunks = [];
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("end", () => {
            try {
              const text = Buffer.concat(chunks).toString();
              if (res.statusCode === 202) return resolve(undefined);
              if (res.statusCode !== 200)
                throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
              const sessionId = res.headers["mcp-session-id"];
              if (sessionId && !this.#sessionId) this.#sessionId = sessionId;
              const type = res.headers["content-type"] ?? "";
              resolve(
                type.startsWith("text/event-stream") ? fromSse(text, message.id) : JSON.parse(text),
              );
            } catch (error) {
              reject(error);
            }
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  call(method, params) {
    return this.post({ jsonrpc: "2.0", id: this.#nextId++, method, params });
  }

  close() {
    this.#agent.destroy();
  }
}

/** The response to `id` among the events of an SSE body. */
function fromSse(text, id) {
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data === "") continue;
    const message = JSON.parse(data);
    if (message.id === id && message.method === undefined) return message;
  }
  throw new Error(`no response to id ${id} in the SSE stream: ${text.slice(0, 200)}`);
}

function checkEcho(response, expected) {
  const item = response?.result?.content?.[0];
  if (response?.error || response?.result?.isError || item?.text !== expected) {
    throw new Error(
      `bad echo response, expected ${JSON.stringify(expected)}: ${JSON.stringify(response)}`,
    );
  }
}

/** Makes `count` echo calls with at most `depth` in flight; returns raw timings. */
async function timeCalls(client, count, depth, era) {
  const latenciesNs = new Float64Array(count);
  let next = 0;
  const began = process.hrtime.bigint();
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const message = `hello #${index}`;
      const start = process.hrtime.bigint();
      const response = await client.call("tools/call", echoParams(era, message));
      latenciesNs[index] = Number(process.hrtime.bigint() - start);
      checkEcho(response, message);
    }
  };
  await Promise.all(Array.from({ length: Math.min(depth, count) }, worker));
  return { latenciesNs, elapsedNs: Number(process.hrtime.bigint() - began) };
}

async function handshake(client) {
  const response = await client.call("initialize", initializeParams());
  if (typeof response?.result?.protocolVersion !== "string") {
    throw new Error(`bad initialize response: ${JSON.stringify(response)}`);
  }
  await client.post({ jsonrpc: "2.0", method: "notifications/initialized" });
}

/**
 * Benchmarks the HTTP server whose entry is the file `entry` (run with this Node).
 * Resolves to `{ sequential, concurrent }`, each `{ calls, callsPerSec, p50Us, p99Us }`.
 */
export async function benchmarkServer({
  entry,
  era = "2025",
  warmup = 2_000,
  sequential = 2_000,
  concurrent = 20_000,
  concurrency = 32,
  timeoutMs = 120_000,
}) {
  const server = startServer(entry);
  let client;
  const measure = async () => {
    const [url, token] = (await server.url).split(" ");
    client = new HttpClient(url, concurrency, era, token);
    if (era === "2025") await handshake(client);
    await timeCalls(client, warmup, concurrency, era);
    const timed = (count, inFlight) =>
      withCpu(server.child, count, async () =>
        summarize(await timeCalls(client, count, inFlight, era)),
      );
    const sequentialStats = await timed(sequential, 1);
    const concurrentStats = await timed(concurrent, concurrency);
    return { sequential: sequentialStats, concurrent: concurrentStats };
  };

  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([measure(), server.exited, timeout]);
  } catch (error) {
    error.message = `${entry}: ${error.message}`;
    throw server.explain(error);
  } finally {
    clearTimeout(timer);
    client?.close();
    server.stop();
  }
}

// Standalone use: node bench/http/driver.mjs <server.mjs> [2025|2026]
if (process.argv[1] === import.meta.filename) {
  const [entry, era] = process.argv.slice(2);
  if (entry === undefined) {
    console.error("usage: node bench/http/driver.mjs <server-entry.mjs> [2025|2026]");
    process.exit(2);
  }
  console.log(JSON.stringify(await benchmarkServer({ entry, era }), null, 2));
}
