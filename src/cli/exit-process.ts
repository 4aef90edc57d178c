/**
 * process.exit as it was when the CLI started. While author code's top level
 * runs, the loader puts process.exit out of its reach (see top-level-guard.ts),
 * and a file with top-level await runs it across waits, during which the CLI
 * may have to end the process itself.
 */
export const exitProcess: (code?: number) => never = process.exit.bind(process);
