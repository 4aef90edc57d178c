/** An OAuth scope token (RFC 6749 §3.3): printable ASCII except space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** What is wrong with a `scopes` list, if anything (undefined: none required). */
export function scopesProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    return `must be a list of scope names, such as ["files:write"], not ${JSON.stringify(value)}`;
  }
  for (const scope of value) {
    if (typeof scope !== "string" || !SCOPE_TOKEN.test(scope)) {
      return `must hold scope names without spaces, quotes or backslashes (OAuth scope tokens), not ${JSON.stringify(scope)}`;
    }
  }
  return undefined;
}

/** The scopes of `required` that `granted` lacks: none means the caller may go on. */
export function missingScopes(
  required: readonly string[],
  granted: ReadonlySet<string>,
): readonly string[] {
  return required.filter((scope) => !granted.has(scope));
}
