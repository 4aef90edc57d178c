/** The variables that turn on OAuth where flags cannot be given (containers, bundles, Workers). */
export const AUTH_ISSUER_ENV = "MCP_DIR_AUTH_ISSUER";
export const AUTH_AUDIENCE_ENV = "MCP_DIR_AUTH_AUDIENCE";

/** An absolute http(s) URL, or why a value is not one. */
export function urlProblem(value: string): string | undefined {
  try {
    const url = new URL(value);
    if ((url.protocol === "https:" || url.protocol === "http:") && url.hash === "") {
      return undefined;
    }
  } catch {
    // Described below.
  }
  return `must be an absolute http(s) URL without a fragment, such as https://id.example.com, got '${value}'`;
}

/** What an audience cannot be: empty, or with spaces. */
export function audienceProblem(value: string): string | undefined {
  return /^\S+$/.test(value)
    ? undefined
    : `must be the identifier tokens carry in aud, such as https://mcp.example.com/mcp, without spaces, got '${value}'`;
}

/**
 * The issuer and audience the environment gives. A variable set to nothing
 * is refused rather than read as "no OAuth" (`MCP_DIR_AUTH_ISSUER=$UNSET`
 * must not serve without auth).
 */
export function oauthFromEnvironment(
  read: (name: string) => string | undefined,
): { issuer?: string; audience?: string } | { problem: string } {
  const found: { issuer?: string; audience?: string } = {};
  for (const [name, key] of [
    [AUTH_ISSUER_ENV, "issuer"],
    [AUTH_AUDIENCE_ENV, "audience"],
  ] as const) {
    const value = read(name);
    if (value === undefined) continue;
    if (value === "") {
      return { problem: `${name} is set but empty; set it to a URL, or unset it` };
    }
    const problem = key === "issuer" ? urlProblem(value) : audienceProblem(value);
    if (problem !== undefined) return { problem: `${name} ${problem}` };
    found[key] = value;
  }
  return found;
}
