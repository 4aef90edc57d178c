import { AsyncLocalStorage } from "node:async_hooks";
import type { StdioOptions } from "../transports/stdio.js";
import { stdoutGuard } from "../transports/stdout-guard.js";
import { exitProcess } from "./exit-process.js";

/**
 * Author code may write to stdout (console.log) while it loads or runs. For a
 * stdio server stdout is the protocol channel, and for `list --json` it is the
 * result, so while author code runs its output goes to stderr. Returns the
 * function that ends this diversion (stdout is back once no one holds it).
 */
export function divertStdout(): () => void {
  return stdoutGuard().hold();
}

function line(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** What a command run by `withCommandIo` has instead of the process's stdin, stdout and stderr. */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
  /** The protocol channel of `serve` and `dev` over stdio. */
  stdio?: Required<StdioOptions>;
  /** Settles when `serve` or `dev` is to stop, as SIGTERM stops them, without ending the process. */
  stop?: Promise<void>;
}

const commandIo = new AsyncLocalStorage<CommandIo>();

/**
 * Runs `run` with what it prints (printOut, printError) going to `io`, stdio
 * served over `io.stdio`, and no terminal to ask on: a test runs a command
 * without a process of its own this way, and two such runs at once do not
 * mix. What author code writes to process.stdout is not caught.
 */
export function withCommandIo<T>(io: CommandIo, run: () => Promise<T>): Promise<T> {
  return commandIo.run(io, run);
}

/** When a command run by withCommandIo is to stop; never for one run by the process itself. */
export function commandStop(): Promise<void> {
  return commandIo.getStore()?.stop ?? new Promise<void>(() => {});
}

/** The streams `serve` and `dev` speak stdio over: the process's unless the command has its own. */
export function commandStdio(): StdioOptions {
  return commandIo.getStore()?.stdio ?? {};
}

let readerMayLeave = false;

/** A command's result; resolves once written, since the process may exit right after. */
export function printOut(text: string): Promise<void> {
  const output = commandIo.getStore();
  if (output) {
    output.out(line(text));
    return Promise.resolve();
  }
  if (!readerMayLeave) {
    readerMayLeave = true;
    // `mcp-dir list | head -1`: the reader closing the pipe early is not a failure.
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      exitProcess(0);
    });
  }
  return new Promise((resolve) => stdoutGuard().write(line(text), resolve));
}

/** Logs, banners and errors. */
export function printError(text: string): Promise<void> {
  const output = commandIo.getStore();
  if (output) {
    output.err(line(text));
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    process.stderr.write(line(text), () => resolve());
  });
}

/** Whether a command may ask the user at the terminal: stdin is one, and the command prints there. */
export function canAskOnTerminal(): boolean {
  return commandIo.getStore() === undefined && process.stdin.isTTY === true;
}
