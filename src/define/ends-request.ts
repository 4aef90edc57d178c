// A brand rather than instanceof: a reloaded module may hold a second copy of a class.
const BRAND = Symbol.for("mcp-dir.ends-request");

/**
 * Marks an error that answers the request itself (a protocol error, or a
 * 2026-07-28 round asking the client for input) rather than becoming the
 * tool's `isError` result when the handler lets it through.
 */
export function endsRequest<E extends Error>(error: E): E {
  Object.defineProperty(error, BRAND, { value: true });
  return error;
}

export function isEndingRequest(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  try {
    return (error as Record<symbol, unknown>)[BRAND] === true;
  } catch {
    // A thrown Proxy whose traps throw is the handler's error, not ours.
    return false;
  }
}
