import type { AuthInfo } from "../../../define/auth.js";
import { isoTime, TokenRefused } from "./verdicts.js";

/**
 * The caller a token's claims name: `scope` (RFC 9068, a space-separated
 * string) or `scp` (Entra ID, Okta: a list or a string) for its scopes;
 * `client_id`, else `azp`, for its client.
 */
export function authInfoOf(claims: Readonly<Record<string, unknown>>): AuthInfo {
  const { sub, exp } = claims;
  const client = claims.client_id ?? claims.azp;
  return {
    subject: typeof sub === "string" ? sub : undefined,
    clientId: typeof client === "string" ? client : undefined,
    scopes: scopesOf(claims.scope ?? claims.scp),
    expiresAt: typeof exp === "number" ? exp : undefined,
    claims,
  };
}

function scopesOf(value: unknown): readonly string[] {
  if (typeof value === "string") return value.split(" ").filter((scope) => scope !== "");
  if (Array.isArray(value)) return value.filter((scope) => typeof scope === "string");
  return [];
}

/** Whether `aud` (a string or a list) names `audience`. */
export function namesAudience(aud: unknown, audience: string): boolean {
  return Array.isArray(aud) ? aud.includes(audience) : aud === audience;
}

/** Refuses a token for another resource, saying which one it is for. */
export function wrongAudience(aud: unknown, audience: string): TokenRefused {
  const carried = aud === undefined ? "no audience" : `audience ${JSON.stringify(aud)}`;
  return new TokenRefused(
    `the access token carries ${carried}, not this server (${audience}); get a token for resource=${audience}`,
    `refused an access token that carries ${carried}, not this server's audience ${audience}: if that is this server, set the audience (--auth-audience, auth.audience) to it`,
  );
}

export function expired(exp: unknown): TokenRefused {
  return new TokenRefused(`the access token expired at ${isoTime(exp)}; get a new one`);
}

export function notYetValid(nbf: unknown): TokenRefused {
  return new TokenRefused(`the access token is not valid before ${isoTime(nbf)}`);
}

/**
 * `exp` and `nbf` judged as jose judges a JWT's, allowing `toleranceSeconds`
 * of clock skew: for claims that do not come through jose (an introspection
 * answer). `iat` is not judged, as jose does not without a maximum age.
 */
export function outsideValidity(
  claims: Readonly<Record<string, unknown>>,
  toleranceSeconds: number,
): TokenRefused | undefined {
  const now = Math.floor(Date.now() / 1000);
  const { exp, nbf } = claims;
  if (typeof exp === "number" && exp <= now - toleranceSeconds) return expired(exp);
  if (typeof nbf === "number" && nbf > now + toleranceSeconds) return notYetValid(nbf);
  return undefined;
}
