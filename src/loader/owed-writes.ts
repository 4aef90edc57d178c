/**
 * Writes a cache owes the disk before the process ends: made at exit, or
 * by payOwedWrites() before a signal ends the process (which runs no exit
 * listener: `serve` and `dev` end by the signal they were sent, once closed).
 * One exit listener for all of them, however many there are.
 */
const owed = new Set<() => void>();
let listening = false;

/** `write` is to be made before the process ends, unless `paid` first. */
export function oweWrite(write: () => void): void {
  owed.add(write);
  if (listening) return;
  listening = true;
  process.once("exit", payOwedWrites);
}

/** `write` was made: nothing is owed for it. */
export function paid(write: () => void): void {
  owed.delete(write);
  if (owed.size > 0 || !listening) return;
  listening = false;
  process.removeListener("exit", payOwedWrites);
}

/** Makes every write owed; a cache that cannot be written is none, never an error. */
export function payOwedWrites(): void {
  for (const write of owed) {
    owed.delete(write);
    try {
      write();
    } catch {
      // The next process makes what was not kept.
    }
  }
}
