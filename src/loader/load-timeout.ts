import { Script } from "node:vm";

/** How long one file may take to load, unless --load-timeout says otherwise. */
export const DEFAULT_LOAD_TIMEOUT_MS = 5000;

/** A file did not finish loading in time; what it was doing was stopped. */
export class LoadTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`did not finish loading within ${ms} ms`);
    this.name = "LoadTimeoutError";
  }
}

const RUN = Symbol.for("mcp-dir.timed-run");
/** vm's timeout stops whatever runs inside the script, including what it calls. */
const CALL = new Script(`globalThis[Symbol.for("mcp-dir.timed-run")]()`);

/**
 * Runs synchronous `work`, stopping it (V8 terminates the running JavaScript)
 * if it is still running when `deadline` (a performance.now() time) passes.
 */
export function runBefore<T>(deadline: number, ms: number, work: () => T): T {
  const left = Math.max(1, Math.round(deadline - performance.now()));
  const global = globalThis as { [RUN]?: () => T };
  const outer = global[RUN];
  global[RUN] = work;
  try {
    return CALL.runInThisContext({ timeout: left }) as T;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      throw new LoadTimeoutError(ms);
    }
    throw error;
  } finally {
    global[RUN] = outer;
  }
}

/** Waits for `promise`, failing with a LoadTimeoutError once `deadline` passes. */
export async function settleBefore<T>(
  deadline: number,
  ms: number,
  promise: Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new LoadTimeoutError(ms)),
      Math.max(0, deadline - performance.now()),
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
