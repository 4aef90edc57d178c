/** The names MCP recommends for tools (SEP-986, 2025-11-25): 1 to 128 of A-Z a-z 0-9 _ - . */
export const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Why a tool or prompt name cannot be served: empty, or with white space or
 * control characters (which no client expects and an HTTP header cannot carry).
 */
export function nameProblem(name: unknown, what: string): string | undefined {
  if (typeof name !== "string" || name === "" || /[\s\p{Cc}]/u.test(name)) {
    return `${what} name ${JSON.stringify(name)} is invalid: use 1 to 128 letters, digits, "_", "-" or "."`;
  }
  return undefined;
}

/** What the spec discourages in a name that can still be served; undefined for a good name. */
export function nameWarning(name: string, what: string): string | undefined {
  if (NAME_PATTERN.test(name)) return undefined;
  const why =
    name.length > 128
      ? "is longer than 128 characters"
      : 'has characters other than letters, digits, "_", "-" and "."';
  return `${what} name ${JSON.stringify(name)} ${why}, which MCP discourages and some clients refuse; rename it`;
}
