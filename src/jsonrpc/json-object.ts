/** A JSON object as JSON.parse makes it: an object that is not an array or null. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
