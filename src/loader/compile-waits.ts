import { speculation } from "./commonjs-hooks.js";
import { PackageNeeded } from "./esm-packages.js";
import { LoadTimeoutError, settleBefore } from "./load-timeout.js";
import { CompilerNeeded, TransformNeeded } from "./speculative-transforms.js";

/*
 * What a load of author files waits for outside its load timer (a package
 * from Node's ES module loader, esbuild's compiler, a file's transform), and
 * how it tells those waits from the file's own failures.
 */

/**
 * How many of the first files are ready to load: at least the first (waited
 * for), and every one after it whose transform has already come.
 */
export async function readyPrefix(transformed: readonly Promise<void>[]): Promise<number> {
  await transformed[0];
  let count = 1;
  const pending = Symbol();
  while (count < transformed.length) {
    // A settled promise answers a race before the pending marker does.
    if ((await Promise.race([transformed[count], pending])) === pending) break;
    count++;
  }
  return count;
}

/** What a load of a file waits for, outside its timer, before it loads the file again. */
export function isNeed(error: unknown): error is PackageNeeded | CompilerNeeded | TransformNeeded {
  return (
    error instanceof PackageNeeded ||
    error instanceof CompilerNeeded ||
    error instanceof TransformNeeded
  );
}

/**
 * Waits for the transform a load asked for, until `deadline`: returns what
 * the load is then to do, the TransformNeeded to load the file again, or a
 * LoadTimeoutError stopped while compiling (esbuild restarted).
 */
export async function transformedBefore(
  deadline: number,
  ms: number,
  needed: TransformNeeded,
): Promise<TransformNeeded | LoadTimeoutError> {
  try {
    await settleBefore(deadline, ms, needed.transformed);
    return needed;
  } catch (error) {
    if (!(error instanceof LoadTimeoutError)) throw error;
    error.whileCompiling = true;
    speculation?.restartCompiler();
    return error;
  }
}

/** Runs `work`, a load under its timer: a compile asked for then wants the compiler running. */
export function timed<T>(work: () => T): T {
  if (speculation === undefined) return work();
  speculation.timed = true;
  try {
    return work();
  } finally {
    speculation.timed = false;
  }
}

/** A load stopped while tsx compiled the file: the file's own code never ran. */
export function isCompileStop(error: unknown): boolean {
  return error instanceof LoadTimeoutError && error.whileCompiling;
}
