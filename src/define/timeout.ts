/** The longest a timer can wait (setTimeout's own limit, about 24.8 days). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** What is wrong with a time limit in milliseconds (0: no limit; undefined: the default), if anything. */
export function timeoutProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_TIMEOUT_MS) {
    return undefined;
  }
  const given = typeof value === "string" ? JSON.stringify(value) : String(value);
  return `must be a whole number of milliseconds from 0 (no limit) to ${MAX_TIMEOUT_MS}, not ${given}`;
}
