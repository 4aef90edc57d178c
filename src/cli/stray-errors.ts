import type { McpServer } from "../index.js";
import { isTopLevelRejection } from "../loader/top-level-guard.js";
import { printError } from "./stdout.js";

/**
 * Keeps a serving process alive through author code's stray errors: a
 * rejection nobody awaited, or a throw from a timer or an event handler. Each
 * is printed on stderr (with its stack) and sent to connected clients as an
 * error log message (without it: a stack names server paths). Returns the
 * function that takes the handlers off again.
 */
export function survivesStrayErrors(server: McpServer): () => void {
  const report = (what: string) => (reason: unknown) => {
    const summary = `author code raised ${what}: ${String(reason)}`;
    const stack = reason instanceof Error && reason.stack ? `\n${reason.stack}` : "";
    void printError(`mcp-dir: ${summary}${stack}`);
    server.log("error", `Author code raised ${what}: ${String(reason)}`);
  };
  const reportRejection = report("an unhandled rejection");
  const onRejection = (reason: unknown, promise: Promise<unknown>) => {
    // A file's top-level code made it while the file loaded (in dev): the loader reports it.
    if (!isTopLevelRejection(promise)) reportRejection(reason);
  };
  const onException = report("an uncaught exception");
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  return () => {
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
  };
}
