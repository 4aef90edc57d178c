import { promiseHooks } from "node:v8";

/**
 * Thrown in place of ending the process when a file's top-level code calls
 * process.exit(): the loader reports it as a problem of that file.
 */
export class ExitWhileLoading extends Error {
  constructor(readonly code: unknown) {
    super(`called process.exit(${code === undefined ? "" : String(code)}) while loading`);
    this.name = "ExitWhileLoading";
  }
}

/** A promise that a file's top-level code made was rejected, and nothing handled it. */
export class RejectedWhileLoading extends Error {
  constructor(readonly reason: unknown) {
    super("raised an unhandled rejection while loading");
    this.name = "RejectedWhileLoading";
  }
}

/** The file (absolute path) whose top-level code runs now, in a guarded run. */
let current: string | undefined;
/** Guarded runs in progress (a file's, or a batch of files'). */
let depth = 0;
/** Every promise made by a file's top-level code, with that file. */
const madeBy = new WeakMap<Promise<unknown>, string>();
/** Promises made since the last settle(): if none, no rejection can be waiting. */
let madeSinceSettle = 0;
/** What made each file fail, though its code may have finished: the first thing only. */
const failures = new Map<string, ExitWhileLoading | RejectedWhileLoading>();
let stopPromiseHook: (() => void) | undefined;
let listening = false;
let realExit: typeof process.exit | undefined;

function fail(file: string, failure: ExitWhileLoading | RejectedWhileLoading): void {
  if (!failures.has(file)) failures.set(file, failure);
}

function refuseExit(code?: unknown): never {
  const file = current;
  if (file === undefined) return (realExit ?? process.exit).call(process, code as number);
  const error = new ExitWhileLoading(code);
  fail(file, error);
  throw error;
}

function onUnhandledRejection(reason: unknown, promise: Promise<unknown>): void {
  const file = madeBy.get(promise);
  if (file !== undefined) {
    fail(file, new RejectedWhileLoading(reason));
    return;
  }
  // Not from a file's top level: with no other listener, end the process as Node would.
  if (process.listenerCount("unhandledRejection") === 1) throw reason;
}

function enter(): void {
  if (depth++ > 0) return;
  stopPromiseHook = promiseHooks.onInit((promise) => {
    if (current === undefined) return;
    madeBy.set(promise, current);
    madeSinceSettle++;
  }) as () => void;
  realExit = process.exit;
  process.exit = refuseExit as typeof process.exit;
  if (!listening) {
    listening = true;
    process.on("unhandledRejection", onUnhandledRejection);
  }
}

function leave(): void {
  if (--depth > 0) return;
  stopPromiseHook?.();
  stopPromiseHook = undefined;
  if (realExit !== undefined) process.exit = realExit;
  realExit = undefined;
  current = undefined;
}

/**
 * Runs `work`, in which author code's top level runs (see asFile), with its
 * promises recorded and process.exit() refused. Call it outside a vm timeout
 * (runBefore): V8 stops timed-out code without running its `finally`.
 */
export function guardTopLevel<T>(work: () => T): T {
  enter();
  try {
    return work();
  } finally {
    leave();
  }
}

/**
 * Like guardTopLevel, for a file imported by Node's ES module loader (top-level
 * await), whose top-level code runs across waits. Whatever runs meanwhile (a
 * call to a tool, in dev) counts as that file's top-level code.
 */
export async function guardTopLevelAsync<T>(file: string, work: () => Promise<T>): Promise<T> {
  enter();
  current = file;
  try {
    return await work();
  } finally {
    leave();
  }
}

/** guardTopLevel for the top-level code of one file (absolute). */
export function runTopLevel<T>(file: string, work: () => T): T {
  return guardTopLevel(() => asFile(file, work));
}

/** Inside guardTopLevel: `work` runs the top-level code of `file` (absolute). */
export function asFile<T>(file: string, work: () => T): T {
  const outer = current;
  current = file;
  try {
    return work();
  } finally {
    current = outer;
  }
}

/**
 * Waits until Node has reported the rejections left unhandled by the guarded
 * runs so far (it does at the end of a macrotask), when they made any promise.
 * Then stops listening for them, unless a guarded run is in progress.
 */
export async function settleTopLevel(): Promise<void> {
  if (madeSinceSettle > 0) {
    madeSinceSettle = 0;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (depth === 0 && listening) {
    listening = false;
    process.off("unhandledRejection", onUnhandledRejection);
  }
}

/** What made `file` (absolute) fail in a guarded run, if anything; forgotten once taken. */
export function takeTopLevelFailure(file: string): Error | undefined {
  const failure = failures.get(file);
  failures.delete(file);
  return failure;
}

/**
 * Whether the loader reports this rejection as a problem of the file whose
 * top-level code made the promise (so a handler of stray errors need not).
 */
export function isTopLevelRejection(promise: Promise<unknown>): boolean {
  return listening && madeBy.has(promise);
}
