/** Error's static slot a runtime or a test runner may fill (optional whatever the types in use say). */
const errors = Error as { prepareStackTrace?: unknown };

/**
 * `error.stack` as Node writes it: with source maps on (tsx turns them on),
 * each position is the author's, in the file as saved. V8 writes a stack
 * when it is first read, with whatever Error.prepareStackTrace is then; a
 * test runner may have put its own there (vitest's knows only the source
 * maps of the files it transformed itself), which would give positions in
 * tsx's output instead. So the first read goes through Node's own.
 */
export function nodeStack(error: Error): string | undefined {
  const installed = errors.prepareStackTrace;
  if (installed === undefined) return error.stack;
  delete errors.prepareStackTrace;
  try {
    return error.stack;
  } finally {
    errors.prepareStackTrace = installed;
  }
}
