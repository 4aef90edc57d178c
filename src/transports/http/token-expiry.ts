import { MAX_TIMEOUT_MS } from "../../define/timeout.js";

/**
 * Calls `expired` once Date.now() reaches `until` (epoch ms: the clock tokens
 * are judged by), however far ahead, and never in the same turn; returns
 * what cancels it. `until` undefined (a caller whose token never expires, or
 * none): never.
 */
export function atExpiry(until: number | undefined, expired: () => void): () => void {
  if (until === undefined) return () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = () => {
    // A timer waits at most MAX_TIMEOUT_MS, and by another clock than Date's: checked when it fires.
    const left = Math.min(Math.max(until - Date.now(), 0), MAX_TIMEOUT_MS);
    timer = setTimeout(() => (Date.now() >= until ? expired() : wait()), left);
    // The stream it ends keeps the process alive; this timer need not.
    (timer as { unref?: () => void }).unref?.();
  };
  wait();
  return () => clearTimeout(timer);
}
