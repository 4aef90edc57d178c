/**
 * serveHttp in a child process: SIGTERM and SIGINT close streams and sessions,
 * then exit; in this process, what the signal does to the server's tasks, and
 * what closing does to 2026-07-28 requests.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, type McpServer, serveHttp } from "../../src/index.js";
import { InProcessTaskStore } from "../../src/server/tasks/in-process-task-store.js";
import { postStateless } from "../helpers/stateless-post.js";
import { resetTaskTools, send, waits } from "../server/helpers/task-tools.js";
import {
  deferred,
  openSession,
  PROTOCOL_VERSION,
  type Running,
  SseReader,
  startFixture,
} from "./helpers.js";

const CHILD = fileURLToPath(new URL("./fixtures/serve-child.ts", import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

async function startChild(): Promise<{
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
}> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", () => reject(new Error("the server exited before printing its URL")));
  });
  return { child, url, exited };
}

describe("graceful shutdown", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`ends open streams and exits on ${signal}`, async () => {
      const { child, url, exited } = await startChild();
      const sessionId = await openSession(url);
      const response = await fetch(url, {
        headers: {
          accept: "text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": PROTOCOL_VERSION,
        },
      });
      const reader = new SseReader(response);
      await reader.next();
      child.kill(signal);
      expect(await reader.next()).toBeUndefined();
      expect(await exited).toEqual({ code: null, signal });
    });
  }
});

describe("a signal with handleSignals", () => {
  const servers: McpServer[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(servers.splice(0).map((server) => server.close()));
    resetTaskTools();
  });

  it("closes the server after the door: a task still running is left failed, saying so", async () => {
    // Two servers on one store stand in for replicas: the other reads what the stopped one left.
    const store = new InProcessTaskStore(10);
    const stopped = createServer({ name: "stopped", version: "1", tasks: { store } }).add(waits);
    const other = createServer({ name: "other", version: "1", tasks: { store } });
    servers.push(stopped, other);
    const before = new Set(process.listeners("SIGTERM"));
    await serveHttp(stopped, { port: 0, handleSignals: true });
    const [onSignal] = process.listeners("SIGTERM").filter((listener) => !before.has(listener));
    const killed = deferred<unknown[]>();
    // The signal would end this test's process: what serveHttp sends itself is recorded instead.
    vi.spyOn(process, "kill").mockImplementation((...args) => {
      killed.resolve(args);
      return true;
    });
    const { result } = await send(stopped, "tools/call", {
      name: "waits",
      arguments: { key: "s" },
    });

    onSignal?.("SIGTERM");

    expect(await killed.promise).toEqual([process.pid, "SIGTERM"]);
    expect((await send(other, "tasks/get", { taskId: result.taskId })).result).toMatchObject({
      status: "failed",
      statusMessage: "The server stopped before the task finished",
      error: { code: -32603, message: "The server stopped before the task finished" },
    });
    expect(process.listeners("SIGTERM")).toEqual([...before]);
  });
});

describe("closing the door with 2026-07-28 requests in flight", () => {
  const CLOSED = {
    code: -32000,
    message: "The server closed before this request completed; send it again",
  };
  function call(id: number, name: string, key: string, progressToken?: string) {
    return postStateless(running.url, {
      id,
      method: "tools/call",
      name,
      params: { name, arguments: { key } },
      meta: progressToken === undefined ? undefined : { progressToken },
    });
  }

  let running: Running;
  afterEach(() => running.serving.close());

  it("answers each with an error, as JSON or as its stream's last event, and aborts its handler", async () => {
    running = await startFixture();
    const { gates } = running;
    const plain = call(1, "hang", "plain");
    const streamed = call(2, "gated", "streamed", "p");
    await gates.wait("plain:started");
    const stream = new SseReader(await streamed);
    expect((await stream.nextMessage())?.message).toMatchObject({
      params: { progressToken: "p", progress: 1 },
    });

    const closed = running.serving.close();

    const response = await plain;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, error: CLOSED });
    expect(await gates.wait("plain")).toBe("aborted");
    expect((await stream.nextMessage())?.message).toEqual({ jsonrpc: "2.0", id: 2, error: CLOSED });
    expect(await stream.next()).toBeUndefined();
    await closed;
  });

  it("ends a listen stream with its own result", async () => {
    running = await startFixture();
    const response = await postStateless(running.url, {
      id: 3,
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true } },
    });
    const stream = new SseReader(response);
    expect((await stream.nextMessage())?.message).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
    });
    const closed = running.serving.close();
    expect((await stream.nextMessage())?.message).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: {
        resultType: "complete",
        _meta: {
          "io.modelcontextprotocol/subscriptionId": 3,
          "io.modelcontextprotocol/serverInfo": { name: "http-fixture", version: "1.0.0" },
        },
      },
    });
    expect(await stream.next()).toBeUndefined();
    await closed;
  });
});
