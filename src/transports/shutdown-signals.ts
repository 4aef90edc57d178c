export type ShutdownSignal = "SIGINT" | "SIGTERM";

const SIGNALS: readonly ShutdownSignal[] = ["SIGINT", "SIGTERM"];

export interface AwaitedSignal {
  /** The first SIGINT or SIGTERM; never settles once `stop` was called. */
  readonly signal: Promise<ShutdownSignal>;
  /** Stops listening: a signal then takes its default course (it ends the process). */
  stop(): void;
}

/**
 * Listens for the first SIGINT or SIGTERM. Once one comes nothing listens any
 * more, so a second signal ends the process at once.
 */
export function awaitShutdownSignal(): AwaitedSignal {
  let heard!: (signal: ShutdownSignal) => void;
  const signal = new Promise<ShutdownSignal>((resolve) => {
    heard = resolve;
  });
  const stop = () => {
    for (const name of SIGNALS) process.off(name, onSignal);
  };
  const onSignal = (name: NodeJS.Signals) => {
    stop();
    heard(name as ShutdownSignal);
  };
  for (const name of SIGNALS) process.on(name, onSignal);
  return { signal, stop };
}

/**
 * Ends the process by `signal` itself, nothing listening any more (Node's
 * default course), so a shell or supervisor sees the signal: 130 for SIGINT,
 * 143 for SIGTERM.
 */
export function endBySignal(signal: ShutdownSignal): void {
  process.kill(process.pid, signal);
  // Node and Bun end here; Deno takes the signal on a later turn of its loop, and the
  // process, nothing left to do, could end first with 0. Held open, it ends by the signal;
  // should the signal not end it, by the code a shell gives it.
  if (process.versions.deno !== undefined) {
    setTimeout(() => process.exit(EXIT_CODES[signal]), 5000);
  }
}

/** 128 + the signal's number, as a shell reports a process a signal ended. */
const EXIT_CODES: Record<ShutdownSignal, number> = { SIGINT: 130, SIGTERM: 143 };
