/**
 * The collector setting (Go's GOGC) esbuild's processes start with when the
 * environment sets none. Go's default (100) collects each time the heap
 * doubles, and the heap of esbuild's service is a few megabytes: on a
 * directory's first load, a collection every few of its small transforms.
 * Measured on a cold start of a thousand tools, on two cores that esbuild
 * shares with the thread loading the files: esbuild's process took 940 to
 * 1110 ms of CPU with the default, and 580 to 710 ms with 400.
 */
const ESBUILD_GOGC = "400";

/** True while GOGC is the variable withEsbuildGc set. */
let set = false;

/**
 * Makes `call`, an esbuild call that may start one of its processes (they
 * take the environment as it is then), with GOGC set for them; the variable
 * is gone again when the call returns, before any other code runs. A load
 * timer that stops the call skips the removal: clearEsbuildGc() makes it.
 */
export function withEsbuildGc<T>(call: () => T): T {
  if (process.env.GOGC !== undefined) return call();
  process.env.GOGC = ESBUILD_GOGC;
  set = true;
  try {
    return call();
  } finally {
    clearEsbuildGc();
  }
}

/** Removes GOGC if withEsbuildGc set it, for a call that a load timer stopped. */
export function clearEsbuildGc(): void {
  if (!set) return;
  set = false;
  delete process.env.GOGC;
}
