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

let readerMayLeave = false;

/** A command's result; resolves once written, since the process may exit right after. */
export function printOut(text: string): Promise<void> {
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
  return new Promise((resolve) => {
    process.stderr.write(line(text), () => resolve());
  });
}
