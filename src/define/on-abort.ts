/** The callbacks waiting on each signal that has any: one abort listener per signal fans out to them. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once when `signal` aborts (at once if it has), and returns
 * what stops waiting. Signals many requests share (one request's signal
 * while its handler asks several things at once, a transport's own) get a
 * single listener however many wait on them, so a request that
 * ends leaves nothing behind, and Node never warns of a leak
 * (MaxListenersExceededWarning) because many requests are waiting.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    callback();
    return () => {};
  }
  let callbacks = waiting.get(signal);
  if (!callbacks) {
    const fresh = new Set<() => void>();
    callbacks = fresh;
    waiting.set(signal, fresh);
    signal.addEventListener(
      "abort",
      () => {
        waiting.delete(signal);
        for (const waiter of fresh) waiter();
        fresh.clear();
      },
      { once: true },
    );
  }
  // Its own entry, so one callback given twice is called twice and removed once each.
  const entry = () => callback();
  const entries = callbacks;
  entries.add(entry);
  return () => {
    entries.delete(entry);
  };
}
