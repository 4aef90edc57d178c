import { type ChildProcess, execFile, spawn } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { Socket } from "node:net";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { StreamClientTransport } from "../../helpers/stream-client-transport.js";
import { createEmptyDir, REPO_ROOT } from "../../loader/helpers/server-dir.js";
import { Inbox } from "../../server/helpers/inbox.js";

/** The built CLI: `npm test` builds before running the tests. */
export const CLI = join(REPO_ROOT, "dist", "cli", "main.js");
export const EXAMPLE_SERVER = join(REPO_ROOT, "example-server");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const children = new Set<ChildProcess>();

/**
 * A pipe for a child's stdout (a named one: Node has no pipe(2)), read as a
 * stream. Node gives a child's stdio socket pairs, which take hundreds of KB
 * at once where a pipe takes 64 KiB: what a CLI leaves unwritten when it exits
 * is lost reliably only on a pipe, as in `mcp-dir serve dir | …`.
 */
async function stdoutPipe(): Promise<{ fd: number; reader: Readable }> {
  const path = join(await createEmptyDir(), "stdout");
  await promisify(execFile)("mkfifo", [path]);
  // Opened for reading first and without waiting for a writer, so opening it for writing does not wait.
  const reader = new Socket({ fd: openSync(path, constants.O_RDONLY | constants.O_NONBLOCK) });
  return { fd: openSync(path, constants.O_WRONLY), reader };
}

/** What a stream gives until it ends, as text. */
function readAll(stream: Readable): Promise<string> {
  let text = "";
  stream.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
  });
  return new Promise((resolve, reject) => {
    stream.once("error", reject);
    stream.once("end", () => resolve(text));
  });
}

/**
 * The commands a test may run in its own process: the cost of a CLI process
 * (some 0.3 s of CPU each, a few hundred in the suite) is the start-up of Node,
 * mcp-dir, zod and esbuild, not the command. Those that load a directory (or
 * build it) answer and end; serve and dev, given an ended stdin, end with it,
 * or refuse their options at once (startCommandHere runs one that is to keep
 * running). init, like everything else, runs as its own process.
 */
const RUN_HERE = new Set([
  "list",
  "check",
  "call",
  "get",
  "read",
  "build",
  "serve",
  "dev",
  "help",
  "--help",
  "-h",
]);

/**
 * Why a case runs its command as a process of its own: what it checks is
 * what author code writes to stdout (which goes to this process's stderr),
 * or what author code does to the process.
 */
export const AUTHOR_STDOUT = { spawn: true } as const;
export const PROCESS_WIDE = { spawn: true } as const;

/** A command run by this process: its stdio, what it printed so far, and its exit code once it ends. */
export interface CommandHere {
  /** The client's end of the command's stdin and stdout, for `serve` and `dev`. */
  readonly transport: StreamClientTransport;
  /** Resolves with the code the command would exit with. */
  readonly code: Promise<number>;
  stdout(): string;
  stderr(): string;
  /** Stops `serve` or `dev` as SIGTERM would; resolves with the exit code. */
  stop(): Promise<number>;
}

const commandsHere = new Set<CommandHere>();

/**
 * Starts `mcp-dir <args>` in this process (see runCommandLine), its stdio
 * over a pair of streams; `onStderr` hears all of stderr at each write.
 * stopCommandsHere stops it if it has not ended.
 */
export async function startCommandHere(
  args: string[],
  onStderr: (all: string) => void = () => {},
): Promise<CommandHere> {
  const [{ runCommandLine }, { withCommandIo }] = await Promise.all([
    import("../../../src/cli/run.js"),
    import("../../../src/cli/stdout.js"),
  ]);
  const transport = new StreamClientTransport();
  let stdout = "";
  let stderr = "";
  let stopNow = () => {};
  const stop = new Promise<void>((resolve) => {
    stopNow = resolve;
  });
  const command: CommandHere = {
    transport,
    code: withCommandIo(
      {
        out: (text) => {
          stdout += text;
        },
        err: (text) => {
          stderr += text;
          onStderr(stderr);
        },
        stdio: { input: transport.input, output: transport.output },
        stop,
      },
      () => runCommandLine(args),
    ),
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => {
      stopNow();
      return command.code;
    },
  };
  transport.ended = command.code;
  commandsHere.add(command);
  void command.code.finally(() => commandsHere.delete(command));
  return command;
}

/** Stops every command startCommandHere started that is still running. */
export async function stopCommandsHere(): Promise<void> {
  await Promise.all([...commandsHere].map((command) => command.stop()));
}

/** `mcp-dir <args>` run by this process to its end: what it prints, and the code it would exit with. */
export async function runCliHere(args: string[]): Promise<CliResult> {
  const command = await startCommandHere(args);
  command.transport.input.end();
  const code = await command.code;
  return { code, stdout: command.stdout(), stderr: command.stderr() };
}

/**
 * Runs `mcp-dir <args>` to completion; stdin gets `input` (default: nothing)
 * and closes. With `pipe`, stdout is a pipe rather than a socket pair.
 * A command of RUN_HERE runs in this process (runCliHere) unless
 * the test gives it a working directory, an environment, input or a pipe,
 * or asks for a process with `spawn`: as it would from a shell, then.
 */
export async function runCli(
  args: string[],
  options: {
    cwd?: string;
    input?: string;
    env?: Record<string, string>;
    pipe?: boolean;
    spawn?: boolean;
  } = {},
): Promise<CliResult> {
  const { cwd, input, env, pipe: wantsPipe, spawn: wantsProcess } = options;
  const here = RUN_HERE.has(args[0] ?? "");
  if (here && !wantsProcess && !wantsPipe && cwd === undefined && input === undefined && !env) {
    return runCliHere(args);
  }
  const pipe = wantsPipe ? await stdoutPipe() : undefined;
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: cwd ?? REPO_ROOT,
    stdio: ["pipe", pipe?.fd ?? "pipe", "pipe"],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  // The child holds the write end now: it ends with the child.
  if (pipe) closeSync(pipe.fd);
  children.add(child);
  const stdout = readAll(pipe?.reader ?? (child.stdout as Readable));
  const stderr = readAll(child.stderr as Readable);
  child.stdin?.end(options.input ?? "");
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode) => {
      children.delete(child);
      resolve(exitCode);
    });
  });
  return { code, stdout: await stdout, stderr: await stderr };
}

export interface CliConnection {
  client: Client;
  transport: StdioClientTransport;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /**
   * Resolves with all of stderr once it contains `text`. stderr is a pipe of its
   * own, so what the server wrote there before a response may arrive after it.
   */
  waitForStderr(text: string): Promise<string>;
}

const connections = new Set<CliConnection>();

/** The official SDK client over `mcp-dir serve <dir>` in a child process. */
export async function connectToServe(
  dir: string,
  options: {
    capabilities?: ClientOptions["capabilities"];
    setup?: (client: Client) => void;
    /** The CLI's main.js to run (default: this repository's build). */
    cli?: string;
    /** The working directory the server starts in (default: this repository). */
    cwd?: string;
    /** Added to the server's environment (NODE_OPTIONS, say). */
    env?: Record<string, string>;
  } = {},
): Promise<CliConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.cli ?? CLI, "serve", dir],
    cwd: options.cwd ?? REPO_ROOT,
    stderr: "pipe",
    ...(options.env && { env: { ...(process.env as Record<string, string>), ...options.env } }),
  });
  let stderr = "";
  const stderrSoFar = new Inbox<string>();
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    stderrSoFar.push(stderr);
  });
  const client = new Client(
    { name: "mcp-dir-cli-test", version: "1.0.0" },
    { capabilities: options.capabilities ?? {} },
  );
  options.setup?.(client);
  const connection: CliConnection = {
    client,
    transport,
    stderr: () => stderr,
    waitForStderr: (text) =>
      stderrSoFar.waitFor((all) => all.includes(text), `stderr to contain ${text}`),
  };
  connections.add(connection);
  await client.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if (!("method" in message)) {
      // The SDK handles a notification in a microtask but a response at once, and
      // forgets a request's progress handler with its response: progress read in
      // the same chunk as the result would be lost. Handing responses over one
      // macrotask later lets every notification read before them be handled first.
      setImmediate(() => deliver?.(message));
      return;
    }
    deliver?.(message);
  };
  return connection;
}

/** Closes every client (ending its server) and kills any CLI child still running. */
export async function stopAll(): Promise<void> {
  const all = [...connections];
  connections.clear();
  await Promise.all(all.map(({ client }) => client.close()));
  for (const child of children) child.kill("SIGKILL");
  children.clear();
}
