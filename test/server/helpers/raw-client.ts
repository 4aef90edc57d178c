/**
 * Drives the fixture server with raw newline-delimited JSON-RPC over its
 * stdin/stdout, as a child process or in this process: for the revisions the
 * SDK client will not negotiate, and for malformed input no real client would send.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { PassThrough, type Readable, type Writable } from "node:stream";
import { type McpServer, serveStdio } from "../../../src/index.js";
import {
  type FixtureOptions,
  startFixtureServer,
} from "../../fixtures/programmatic/fixture-server.js";
import { FIXTURE, REPO_ROOT } from "./fixture.js";
import { Inbox } from "./inbox.js";

// biome-ignore lint/suspicious/noExplicitAny: messages are arbitrary JSON under test.
export type Json = any;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const running = new Set<RawClient>();

/** Where a raw client's server runs: a child process, or this process over a pair of streams. */
interface Peer {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly exited: Promise<Exit>;
  kill(): void;
  /** Sends the process `signal`: a child process only. */
  signal?(signal: NodeJS.Signals): void;
}

export class RawClient {
  /** Every stdout line that parsed as JSON, in order. */
  readonly messages = new Inbox<Json>();
  /** Every stdout line that did not parse as JSON (must stay empty). */
  readonly garbage: string[] = [];
  /**
   * stderr so far: each item is the whole text received up to then. In this
   * process it holds the server's own diagnostics (what its `warn` says) and
   * what the fixture's handlers report, not what else writes to the process's stderr.
   */
  readonly stderr = new Inbox<string>();
  readonly exited: Promise<Exit>;
  private readonly peer: Peer;
  private stdoutRest = "";
  private stderrText = "";
  private nextId = 1;

  private constructor(start: (stderr: (text: string) => void) => Peer) {
    this.peer = start((text) => {
      this.stderrText += text;
      this.stderr.push(this.stderrText);
    });
    this.peer.stdout.setEncoding("utf8");
    this.peer.stdout.on("data", (chunk: string) => this.onStdout(chunk));
    // Writing to a server that has exited must not fail the test run.
    this.peer.stdin.on("error", () => {});
    this.exited = this.peer.exited;
    running.add(this);
    void this.exited.then(() => running.delete(this));
  }

  private static spawned(env: Record<string, string>, args: string[]): RawClient {
    return new RawClient((stderr) => {
      const child = spawn(process.execPath, args, {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      child.stderr.setEncoding("utf8").on("data", stderr);
      const exited = new Promise<Exit>((resolve) => {
        child.once("exit", (code, signal) => resolve({ code, signal }));
      });
      return {
        stdin: child.stdin,
        stdout: child.stdout,
        exited,
        kill: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        },
        signal: (signal) => child.kill(signal),
      };
    });
  }

  /** Starts the fixture as a child process; env adds to (or overrides) the test's environment. */
  static start(env: Record<string, string> = {}): RawClient {
    return RawClient.spawned(env, [FIXTURE]);
  }

  /**
   * Serves a fixture server in this process over stdio's transport, through a
   * pair of streams: the same bytes, no child process. For what is not about
   * the process (its exit, what author code writes to its stdout or stderr).
   */
  static async inProcess(options: FixtureOptions = {}): Promise<RawClient> {
    let stderr: (text: string) => void = () => {};
    const server = await startFixtureServer({
      ...options,
      warn: (m) => stderr(`mcp-dir: ${m}\n`),
      report: (line) => stderr(line),
    });
    return RawClient.overStreams(server, (write) => {
      stderr = write;
    });
  }

  /**
   * Serves `server` (a directory loaded in this process, say) as inProcess
   * serves the fixture: over stdio's transport, through a pair of streams; the
   * server is closed when the input ends. `stderr` stays empty.
   */
  static serving(server: McpServer): RawClient {
    return RawClient.overStreams(server, () => {});
  }

  private static overStreams(
    server: McpServer,
    onStderr: (write: (text: string) => void) => void,
  ): RawClient {
    return new RawClient((write) => {
      onStderr(write);
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const served = serveStdio(server, { input: stdin, output: stdout });
      const exited = served.then(async (): Promise<Exit> => {
        await server.close();
        stdout.end();
        return { code: 0, signal: null };
      });
      // Killed: the connection goes at once, as when a process dies (what runs is cancelled).
      return { stdin, stdout, exited, kill: () => stdin.destroy(new Error("killed")) };
    });
  }

  /** Starts the built CLI, `mcp-dir <args>` (for example `serve <dir>`). */
  static cli(args: string[], env: Record<string, string> = {}): RawClient {
    return RawClient.spawned(env, [join(REPO_ROOT, "dist", "cli", "main.js"), ...args]);
  }

  /** Starts the fixture (a child process) and initializes a session at `version`. */
  static async initialized(
    version: string,
    capabilities: Json = {},
    env: Record<string, string> = {},
  ): Promise<{ client: RawClient; result: Json }> {
    const client = RawClient.start(env);
    const result = await client.initialize(version, capabilities);
    return { client, result };
  }

  /** A fixture server in this process, with a session initialized at `version`. */
  static async initializedInProcess(
    version: string,
    capabilities: Json = {},
    options: FixtureOptions = {},
  ): Promise<{ client: RawClient; result: Json }> {
    const client = await RawClient.inProcess(options);
    const result = await client.initialize(version, capabilities);
    return { client, result };
  }

  private onStdout(chunk: string): void {
    const lines = (this.stdoutRest + chunk).split("\n");
    this.stdoutRest = lines.pop() ?? "";
    for (const line of lines) {
      try {
        this.messages.push(JSON.parse(line));
      } catch {
        this.garbage.push(line);
      }
    }
  }

  get stderrSoFar(): string {
    return this.stderrText;
  }

  /** Writes raw text to the server's stdin, exactly as given. */
  write(text: string): void {
    this.peer.stdin.write(text);
  }

  /** Writes raw bytes to the server's stdin (to split a character across writes). */
  writeBytes(bytes: Uint8Array): void {
    this.peer.stdin.write(bytes);
  }

  /** Sends one message (or a batch) as a line. */
  send(message: Json): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  notify(method: string, params?: Json): void {
    this.send(
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params },
    );
  }

  /** A fresh numeric id for a request. */
  id(): number {
    return this.nextId++;
  }

  /** Sends a request and resolves with the whole response message (result or error). */
  request(method: string, params?: Json, id: string | number = this.id()): Promise<Json> {
    const message =
      params === undefined
        ? { jsonrpc: "2.0", id, method }
        : { jsonrpc: "2.0", id, method, params };
    const sentAt = this.messages.items.length;
    this.send(message);
    return this.response(id, sentAt);
  }

  /**
   * Resolves with the response to request `id`: the first one among the messages
   * received from index `since` on (so a reused id finds its own answer).
   */
  response(id: string | number | null, since = 0): Promise<Json> {
    return this.messages.waitFor(
      (m) => !Array.isArray(m) && !("method" in m) && m.id === id,
      `the response to request ${JSON.stringify(id)}`,
      since,
    );
  }

  /** Resolves with the result of a request; fails the test on an error response. */
  async result(method: string, params?: Json): Promise<Json> {
    const response = await this.request(method, params);
    if ("error" in response) {
      throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
    }
    return response.result;
  }

  /** Resolves with the first message, received or to come, that is a `method` notification or request. */
  waitForMethod(method: string, matches: (m: Json) => boolean = () => true): Promise<Json> {
    return this.messages.waitFor(
      (m) => !Array.isArray(m) && m.method === method && matches(m),
      `a "${method}" message`,
    );
  }

  /** Messages received so far that carry `method`. */
  withMethod(method: string): Json[] {
    return this.messages.items.filter((m) => !Array.isArray(m) && m.method === method);
  }

  waitForStderr(text: string): Promise<string> {
    return this.stderr.waitFor((all) => all.includes(text), `stderr to contain ${text}`);
  }

  async initialize(version: string, capabilities: Json = {}): Promise<Json> {
    const result = await this.result("initialize", {
      protocolVersion: version,
      capabilities,
      clientInfo: { name: "raw-test-client", version: "0.0.1" },
    });
    this.notify("notifications/initialized");
    return result;
  }

  /** Answers a request the server sent. */
  respond(id: string | number, result: Json): void {
    this.send({ jsonrpc: "2.0", id, result });
  }

  /** Closes stdin (the MCP way to end a stdio session) and resolves with how the process exited. */
  close(): Promise<Exit> {
    this.peer.stdin.end();
    return this.exited;
  }

  /** Sends the server's process `signal` and resolves with how it exited. */
  signal(signal: NodeJS.Signals): Promise<Exit> {
    if (!this.peer.signal) throw new Error("a server in this process takes no signal");
    this.peer.signal(signal);
    return this.exited;
  }

  /** Ends the server however it is doing. */
  async kill(): Promise<void> {
    this.peer.kill();
    await this.exited;
  }
}

/** Kills every raw child still running; call from afterEach/afterAll. */
export async function killRawClients(): Promise<void> {
  await Promise.all([...running].map((client) => client.kill()));
}
