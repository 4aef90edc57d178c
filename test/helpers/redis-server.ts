/**
 * A real `redis-server` (Debian's package) for tests, on 127.0.0.1 and a port
 * that was free: redis-server takes no port 0, so one is found by binding
 * port 0 with node:net and closing it. It is ready once its log says so and a
 * connection to it answers PING; `stop` and `start` take it down and bring it
 * back on the same port (with `persistent`, its data too); `command` asks it
 * what a test checks, through redis-cli.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REDIS_SERVER = "/usr/bin/redis-server";
const REDIS_CLI = "/usr/bin/redis-cli";
const READY_WITHIN_MS = 10_000;

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, and waits until it answers. */
  start(): Promise<void>;
  /** One command's reply as redis-cli prints it, trimmed: `command("EXISTS", key)` is "1" or "0". */
  command(...args: string[]): Promise<string>;
}

const running = new Set<ChildProcess>();
const folders = new Set<string>();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once a connection to the port answers PING; rejects past the deadline. */
function answersPing(port: number, deadline: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.setEncoding("utf8");
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (reply: string) => {
      socket.destroy();
      if (reply.startsWith("+PONG")) resolve();
      else reject(new Error(`redis-server on port ${port} answered PING with ${reply}`));
    });
    socket.once("error", (error) => {
      socket.destroy();
      if (Date.now() > deadline) reject(error);
      // Its log said ready, so the port is listening: a refusal can only be a moment early.
      else setImmediate(() => answersPing(port, deadline).then(resolve, reject));
    });
  });
}

function launch(port: number, dir: string | undefined): Promise<ChildProcess> {
  const persistence = dir ? ["--appendonly", "yes", "--dir", dir] : ["--appendonly", "no"];
  const child = spawn(
    REDIS_SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  running.add(child);
  child.once("exit", () => running.delete(child));
  const deadline = Date.now() + READY_WITHIN_MS;
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(
      () => reject(new Error(`redis-server was not ready within ${READY_WITHIN_MS} ms:\n${log}`)),
      READY_WITHIN_MS,
    );
    const exited = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${log}`));
    };
    child.once("exit", exited);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      log += chunk;
      if (!log.includes("Ready to accept connections")) return;
      child.stdout?.removeAllListeners("data");
      child.stdout?.resume();
      answersPing(port, deadline).then(
        () => {
          clearTimeout(timer);
          child.off("exit", exited);
          resolve(child);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  });
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

/** A redis-server of the test's own; `persistent`: its data survives `stop` and `start`. */
export async function startRedis(options: { persistent?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = options.persistent ? mkdtempSync(join(tmpdir(), "mcp-dir-redis-")) : undefined;
  if (dir) folders.add(dir);
  let child = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => kill(child, "SIGTERM"),
    async start() {
      child = await launch(port, dir);
    },
    command: (...args) =>
      new Promise((resolve, reject) => {
        execFile(REDIS_CLI, ["-p", String(port), ...args], (error, stdout) =>
          error ? reject(error) : resolve(stdout.trim()),
        );
      }),
  };
}

/** Kills every redis-server a test started, and removes their data. */
export async function stopAllRedis(): Promise<void> {
  await Promise.all([...running].map((child) => kill(child, "SIGKILL")));
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  folders.clear();
}
