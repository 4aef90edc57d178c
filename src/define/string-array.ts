/** An array of strings only (what a JSON value must be to stand for a list of names, URIs, ids). */
export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
