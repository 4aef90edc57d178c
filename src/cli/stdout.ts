import { exitProcess } from "./exit-process.js";

/**
 * Author code may write to stdout (console.log) while it loads or runs. For a
 * stdio server stdout is the protocol channel, and for `list --json` it is the
 * result, so while author code runs its output goes to stderr. Returns the
 * function that puts stdout back.
 */
export function divertStdout(): () => void {
  const stdout = process.stdout;
  const original = stdout.write;
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  return () => {
    stdout.write = original;
  };
}

function writeLine(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    stream.write(text.endsWith("\n") ? text : `${text}\n`, () => resolve());
  });
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
  return writeLine(process.stdout, text);
}

/** Logs, banners and errors. */
export function printError(text: string): Promise<void> {
  return writeLine(process.stderr, text);
}
