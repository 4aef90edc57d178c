/**
 * What author code threw, or rejected with, in words: "Error: message" for
 * an Error, else as String() shows it, or its kind when even that throws
 * (Object.create(null), a toString that throws).
 */
export function showThrown(thrown: unknown): string {
  try {
    return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  } catch {
    return Object.prototype.toString.call(thrown);
  }
}
