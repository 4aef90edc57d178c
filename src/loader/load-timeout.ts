import { Script } from "node:vm";

/** How long one file may take to load, unless --load-timeout says otherwise. */
export const DEFAULT_LOAD_TIMEOUT_MS = 5000;

/** A file did not finish loading in time; what it was doing was stopped. */
export class LoadTimeoutError extends Error {
  /** Stopped while tsx compiled the file, before any of its code ran (the loader says so). */
  whileCompiling = false;

  constructor(readonly ms: number) {
    super(`did not finish loading within ${ms} ms`);
    this.name = "LoadTimeoutError";
  }
}

const RUN = Symbol.for("mcp-dir.timed-run");
/** vm's timeout stops whatever runs inside the script, including what it calls. */
const CALL = new Script(`globalThis[Symbol.for("mcp-dir.timed-run")]()`);
/**
 * The global object of the context the script runs in: Node's main context.
 * It is this module's `globalThis`, unless a test runner evaluates modules in
 * a context of its own (jest does), whose global the script would not see.
 */
const MAIN_GLOBAL = new Script("globalThis").runInThisContext() as { [RUN]?: () => unknown };

/**
 * Runs synchronous `work`, stopping it (V8 terminates the running JavaScript)
 * if it is still running when `deadline` (a performance.now() time) passes.
 */
export function runBefore<T>(deadline: number, ms: number, work: () => T): T {
  const left = Math.max(1, Math.round(deadline - performance.now()));
  const global = MAIN_GLOBAL as { [RUN]?: () => T };
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

/** How one item of runEachBefore went. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs synchronous `work` for items in turn as if each had its own runBefore of
 * `ms`, but many under one timer: arming V8's watchdog starts a thread, which
 * costs about 0.3 ms here, a third of a second for a thousand small files. An
 * item is started only in the first tenth of a run and the run is stopped `ms`
 * after that tenth, so every item gets at least `ms` (at most 1.1 × `ms`), and
 * the one running when a run is stopped fails with a LoadTimeoutError.
 * Returns the outcomes of a prefix of `items`: it stops after the first item
 * whose outcome `until` accepts (a stopped one's included), for the caller to
 * deal with and go on.
 */
export function runEachBefore<I, T>(
  items: readonly I[],
  ms: number,
  work: (item: I) => T,
  until: (outcome: Outcome<T>) => boolean = () => false,
): Outcome<T>[] {
  const outcomes: Outcome<T>[] = [];
  const slice = Math.max(1, Math.ceil(ms / 10));
  let stop = false;
  while (outcomes.length < items.length && !stop) {
    const started = performance.now();
    try {
      runBefore(started + slice + ms, ms, () => {
        do {
          const item = items[outcomes.length] as I;
          let outcome: Outcome<T>;
          try {
            outcome = { ok: true, value: work(item) };
          } catch (error) {
            outcome = { ok: false, error };
          }
          outcomes.push(outcome);
          stop = until(outcome);
        } while (outcomes.length < items.length && !stop && performance.now() - started < slice);
      });
    } catch (error) {
      // Only the timer ends a run from outside: the item it stopped has no outcome yet.
      const outcome: Outcome<T> = { ok: false, error };
      outcomes.push(outcome);
      stop = until(outcome);
    }
  }
  return outcomes;
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
