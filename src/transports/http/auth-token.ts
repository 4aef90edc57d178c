/** The variable that holds the bearer token, so it stays out of process listings. */
export const AUTH_TOKEN_ENV = "MCP_DIR_AUTH_TOKEN";

/**
 * The token a variable holds, or why it cannot be one. A variable set to
 * nothing is refused rather than read as "no auth" (`MCP_DIR_AUTH_TOKEN=$UNSET`
 * must not serve without a token); a token with white space could never match
 * an Authorization header.
 */
export function tokenFromEnvironment(
  value: string | undefined,
): { token: string | undefined } | { problem: string } {
  if (value === undefined) return { token: undefined };
  if (value === "") {
    return {
      problem: `${AUTH_TOKEN_ENV} is set but empty; set it to a token, or unset it to serve without auth`,
    };
  }
  if (!/^\S+$/.test(value)) return { problem: `${AUTH_TOKEN_ENV} must be a token without spaces` };
  return { token: value };
}
