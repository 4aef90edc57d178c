import { type HeaderMap, headerOf } from "../exchange.js";

/** The token of an `Authorization: Bearer <token>` header (any scheme case); undefined otherwise. */
export function bearerToken(headers: HeaderMap): string | undefined {
  const authorization = headerOf(headers, "authorization");
  if (authorization === undefined || authorization.length < 8) return undefined;
  if (authorization.charCodeAt(6) !== 32 || authorization.slice(0, 6).toLowerCase() !== "bearer") {
    return undefined;
  }
  const token = authorization.slice(7).trim();
  return token === "" || /\s/.test(token) ? undefined : token;
}

/** An RFC 6750 `WWW-Authenticate: Bearer` challenge. */
export function bearerChallenge(parts: {
  error?: "invalid_token" | "insufficient_scope";
  metadataUrl: string;
  scopes?: readonly string[];
}): string {
  const params: string[] = [];
  if (parts.error !== undefined) params.push(`error="${parts.error}"`);
  params.push(`resource_metadata="${quoted(parts.metadataUrl)}"`);
  if (parts.scopes !== undefined && parts.scopes.length > 0) {
    params.push(`scope="${quoted(parts.scopes.join(" "))}"`);
  }
  return `Bearer ${params.join(", ")}`;
}

/** A value safe inside a quoted-string: no quote, backslash or control character breaks out. */
function quoted(value: string): string {
  return value.replace(/[\\"]/g, "\\$&").replace(/[^\x20-\x7E]/g, " ");
}
