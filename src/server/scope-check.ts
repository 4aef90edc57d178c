import type { AuthInfo } from "../define/auth.js";
import { missingScopes } from "../define/scopes.js";
import { isStringArray } from "../define/string-array.js";
import { JsonRpcError, type JsonRpcResponse } from "../jsonrpc/index.js";
import { McpErrorCode } from "../protocol/errors.js";
import type { RequestEnv } from "./env.js";

/** Each token's scopes as a set, made once per verified token (the transport caches those). */
const grantedSets = new WeakMap<AuthInfo, ReadonlySet<string>>();

export function grantedScopes(auth: AuthInfo): ReadonlySet<string> {
  let granted = grantedSets.get(auth);
  if (granted === undefined) {
    granted = new Set(auth.scopes);
    grantedSets.set(auth, granted);
  }
  return granted;
}

/**
 * Refuses a caller whose token lacks scopes `what` needs, naming all of them
 * (not only the missing ones) so that one new authorization is enough.
 */
export function requireScopes(env: RequestEnv, required: readonly string[], what: string): void {
  const { auth } = env;
  if (auth === undefined || required.length === 0) return;
  const granted = grantedScopes(auth);
  if (required.every((scope) => granted.has(scope))) return;
  const missing = missingScopes(required, granted);
  throw new JsonRpcError(
    McpErrorCode.InsufficientScope,
    `Insufficient scope: ${what} needs the scopes ${required.join(" ")}, and the access token lacks ${missing.join(" ")}; authorize again asking for them`,
    { requiredScopes: required },
  );
}

/** The scopes an insufficient-scope answer names, when `response` is one. */
export function requiredScopesOf(response: JsonRpcResponse): readonly string[] | undefined {
  if (!("error" in response) || response.error.code !== McpErrorCode.InsufficientScope) {
    return undefined;
  }
  const scopes = (response.error.data as { requiredScopes?: unknown } | undefined)?.requiredScopes;
  return isStringArray(scopes) ? scopes : undefined;
}
