/**
 * An object literal (or Object.create(null)): not an array, a class instance
 * or a schema. Realm-independent: author code that a test runner (jest) runs
 * in another context than mcp-dir makes its literals from another
 * Object.prototype, still one whose own prototype is null.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}
