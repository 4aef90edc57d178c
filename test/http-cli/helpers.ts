/**
 * The real CLI (`node dist/cli/main.js serve|dev … --http --port 0`) in a child
 * process, and the official SDK client over Streamable HTTP against it.
 * `npm test` builds dist/ before the tests run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rename, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CLI,
  EXAMPLE_SERVER,
  runCliHere,
  startCommandHere,
  stopCommandsHere,
} from "../cli/helpers/cli.js";
import { REPO_ROOT } from "../loader/helpers/server-dir.js";

export { CLI, EXAMPLE_SERVER, REPO_ROOT };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CliProcess {
  readonly child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Resolves with the first match in stderr; rejects if the process exits first. */
  waitForStderr(pattern: RegExp): Promise<RegExpExecArray>;
  readonly exited: Promise<Exit>;
}

export interface CliServer extends CliProcess {
  /** The endpoint the banner printed: "… at <url>". */
  readonly url: string;
  /** The URL's origin, for /health and the metadata paths. */
  readonly origin: string;
}

const children = new Set<ChildProcess>();

export const TEST_STATE_KEY = "test-state-key-shared-by-replicas-0123456789";

/** Starts `mcp-dir <args>` with no stdin; stdout and stderr are collected. */
export function spawnCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): CliProcess {
  return spawnProgram(process.execPath, [CLI, ...args], options);
}

/**
 * Starts any program that serves as the CLI does (a built bundle under Node,
 * Bun or Deno), with the same environment rules, collected output and cleanup.
 */
export function spawnProgram(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): CliProcess {
  const env = { ...process.env, ...options.env };
  // Tests choose whether a token or an issuer is set; never inherit one.
  for (const name of ["MCP_DIR_AUTH_TOKEN", "MCP_DIR_AUTH_ISSUER", "MCP_DIR_AUTH_AUDIENCE"]) {
    if (options.env?.[name] === undefined) delete env[name];
  }
  // A shared requestState key, as a deployment has, unless the test says otherwise
  // (MCP_DIR_STATE_KEY: undefined for a server with a key of its own).
  if (options.env === undefined || !("MCP_DIR_STATE_KEY" in options.env)) {
    env.MCP_DIR_STATE_KEY = TEST_STATE_KEY;
  } else if (options.env.MCP_DIR_STATE_KEY === undefined) {
    delete env.MCP_DIR_STATE_KEY;
  }
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let stderr = "";
  let stdout = "";
  const watchers = new Set<() => void>();
  const exited = new Promise<Exit>((resolve) => {
    child.once("close", (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
      for (const watcher of [...watchers]) watcher();
    });
  });
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const watcher of [...watchers]) watcher();
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  const waitForStderr = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stderr);
        if (match) {
          watchers.delete(check);
          resolve(match);
        } else if (hasExited || child.exitCode !== null || child.signalCode !== null) {
          watchers.delete(check);
          reject(new Error(`${command} exited before printing ${pattern}; stderr:\n${stderr}`));
        }
      };
      watchers.add(check);
      check();
    });
  return { child, stderr: () => stderr, stdout: () => stdout, waitForStderr, exited };
}

/**
 * Runs `mcp-dir <args>` to its end: in this process (runCliHere, its stdin
 * ended) unless it is given an environment of its own.
 */
export async function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<Exit & { stdout: string; stderr: string }> {
  if (options.env === undefined) return { ...(await runCliHere(args)), signal: null };
  const running = spawnCli(args, options);
  const exit = await running.exited;
  return { ...exit, stdout: running.stdout(), stderr: running.stderr() };
}

/** The banner's last words: " at <url>" at the end of a line. */
const BANNER_URL = / at (http:\/\/\S+)\n/;

/** Starts `mcp-dir <args>` and waits for the banner that names the endpoint. */
export function startCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<CliServer> {
  return startProgram(process.execPath, [CLI, ...args], options);
}

/** `mcp-dir serve|dev … --http` run by this process (startCommandHere), as startCli gives it. */
export interface ServerHere {
  readonly url: string;
  readonly origin: string;
  stderr(): string;
  /** Stops it as SIGTERM would; resolves with the exit code. */
  stop(): Promise<number>;
}

/**
 * Starts `mcp-dir <args>` (serve or dev with --http) in this process and waits
 * for the banner that names its endpoint; stopAll stops it. For a case whose
 * subject is what the server answers, not the process: it has no environment
 * of its own (no MCP_DIR_STATE_KEY: its requestState key is its own).
 */
export async function startCliHere(args: string[]): Promise<ServerHere> {
  let found: (url: string) => void = () => {};
  const banner = new Promise<string>((resolve) => {
    found = resolve;
  });
  const command = await startCommandHere(args, (all) => {
    const url = BANNER_URL.exec(all)?.[1];
    if (url !== undefined) found(url);
  });
  const ended = command.code.then((): never => {
    throw new Error(
      `mcp-dir ${args.join(" ")} ended before its banner; stderr:\n${command.stderr()}`,
    );
  });
  const url = await Promise.race([banner, ended]);
  return { url, origin: new URL(url).origin, stderr: command.stderr, stop: command.stop };
}

/** Starts a program that serves HTTP and waits for the banner that names its endpoint. */
export async function startProgram(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<CliServer> {
  const running = spawnProgram(command, args, options);
  const [, url = ""] = await running.waitForStderr(BANNER_URL);
  return { ...running, url, origin: new URL(url).origin };
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Resolves once a GET stream the transport opened carried `fragment` (the SDK may see it first). */
  onGetStream(fragment: string): Promise<void>;
  /** The Last-Event-ID of every GET that resumed a stream. */
  resumedWith: string[];
  /** Errors the transport reported. */
  errors: Error[];
}

const clients = new Set<Client>();

/**
 * The official SDK client, connected to `url`. GET streams are recorded, so a
 * test can see which notifications came on them; `wrapFetch` may alter what
 * the transport's fetch returns.
 */
export async function connect(
  url: string,
  options: {
    capabilities?: ClientOptions["capabilities"];
    headers?: Record<string, string>;
    setup?: (client: Client) => void;
    wrapFetch?: (response: Response, init: RequestInit | undefined) => Response;
  } = {},
): Promise<Connected> {
  let getText = "";
  const getWatchers = new Set<() => void>();
  const resumedWith: string[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const wrapped = options.wrapFetch ? options.wrapFetch(response, init) : response;
    if (init?.method !== "GET" || !wrapped.body) return wrapped;
    const lastEventId = new Headers(init.headers).get("last-event-id");
    if (lastEventId !== null) resumedWith.push(lastEventId);
    const [mine, theirs] = wrapped.body.tee();
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of mine) {
          getText += decoder.decode(chunk, { stream: true });
          for (const watcher of [...getWatchers]) watcher();
        }
      } catch {
        // The transport closed the stream; what was read is kept.
      }
    })();
    return new Response(theirs, {
      status: wrapped.status,
      statusText: wrapped.statusText,
      headers: wrapped.headers,
    });
  };
  const client = new Client(
    { name: "mcp-dir-http-cli-test", version: "1.0.0" },
    { capabilities: options.capabilities ?? {} },
  );
  const errors: Error[] = [];
  options.setup?.(client);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: recordingFetch,
    ...(options.headers && { requestInit: { headers: options.headers } }),
  });
  clients.add(client);
  await client.connect(transport);
  client.onerror = (error) => errors.push(error);
  const onGetStream = (fragment: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!getText.includes(fragment)) return;
        getWatchers.delete(check);
        resolve();
      };
      getWatchers.add(check);
      check();
    });
  return { client, transport, onGetStream, resumedWith, errors };
}

/** Closes every client, then kills every CLI child still running and waits for it to go. */
export async function stopAll(): Promise<void> {
  const open = [...clients];
  clients.clear();
  await Promise.all(open.map((client) => client.close().catch(() => {})));
  await stopCommandsHere();
  const alive = [...children];
  await Promise.all(
    alive.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("close", () => resolve());
          child.kill("SIGKILL");
        }),
    ),
  );
}

/** A promise with its resolve function, for callbacks that signal the test. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export const PROTOCOL_VERSION = "2025-11-25";

/** The headers a well-behaved client sends on a POST. */
export function postHeaders(sessionId?: string, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    ...extra,
  };
  if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
  return headers;
}

export function post(url: string, body: unknown, headers: Record<string, string>) {
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}

export function initializeRequest(capabilities: Record<string, unknown> = {}) {
  return {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities,
      clientInfo: { name: "raw", version: "1.0.0" },
    },
  };
}

/** initialize + notifications/initialized over raw HTTP; returns the session id. */
export async function openSession(
  url: string,
  options: { capabilities?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<string> {
  const response = await post(
    url,
    initializeRequest(options.capabilities),
    postHeaders(undefined, options.headers),
  );
  if (response.status !== 200) throw new Error(`initialize got ${response.status}`);
  await response.text();
  const sessionId = response.headers.get("mcp-session-id");
  if (!sessionId) throw new Error("initialize returned no Mcp-Session-Id");
  const initialized = await post(
    url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    postHeaders(sessionId, options.headers),
  );
  await initialized.text();
  return sessionId;
}

/** GET on the endpoint: the session's standalone stream (or a resumed one). */
export function openGetStream(
  url: string,
  sessionId: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": PROTOCOL_VERSION,
      ...extra,
    },
  });
}

export { type SseEvent, SseReader } from "../helpers/sse-reader.js";

/** The first text block of a tool result. */
export function text(result: unknown): string {
  const [first] = (result as { content: Array<{ text?: string }> }).content;
  return first?.text ?? "";
}

/**
 * Saves a file as editors do atomically: a hidden temporary file (which the
 * watcher ignores) renamed over it, so the watcher never sees it half-written.
 */
export async function saveFile(path: string, content: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.tmp`);
  await writeFile(temporary, content);
  await rename(temporary, path);
}
