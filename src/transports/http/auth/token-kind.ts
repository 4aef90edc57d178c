import { TokenRefused } from "./verdicts.js";

/**
 * The `typ` header, lower-cased and without "application/", that access
 * tokens share with other JWTs: the generic `JWT` (or none) that Auth0,
 * Entra ID, Keycloak and Okta write on theirs. RFC 9068's `at+jwt` is an
 * access token on its own; any other type is a JWT of another kind
 * (`logout+jwt`, `secevent+jwt`, `dpop+jwt`, ...).
 */
const UNTYPED = "jwt";

/** Claims only an ID token carries (OpenID Connect Core 3.1.3.6, 3.3.2.11; FAPI's s_hash). */
const ID_TOKEN_CLAIMS = ["nonce", "at_hash", "c_hash", "s_hash"] as const;

/**
 * Why a JWT is not an access token, from what it says of itself, or
 * undefined when it may be one. An ID token, a logout token or a DPoP proof
 * signed with the issuer's keys and naming this server in `aud` (an ID token
 * does whenever the audience is a client's id, as in Entra ID's recipe)
 * would pass every other check. Read from the unverified token, so a token
 * of another kind costs no key fetch.
 *
 * The header decides when it names a type: `at+jwt` is an access token on
 * its issuer's word, anything but `JWT` is not one. An untyped token (none,
 * or `JWT`, as most providers type their access tokens and their ID tokens
 * alike) is refused only on a claim an access token never carries.
 */
export function notAnAccessToken(
  header: Readonly<Record<string, unknown>>,
  claims: Readonly<Record<string, unknown>>,
): TokenRefused | undefined {
  const type = typeOf(header.typ);
  if (type === "at+jwt") return undefined;
  if (type !== undefined && type !== UNTYPED) {
    return new TokenRefused(
      `the access token is a JWT of type ${JSON.stringify(header.typ)}, not an access token`,
    );
  }
  const mark = idTokenMark(claims);
  if (mark !== undefined) {
    return new TokenRefused(
      `the access token is an OpenID Connect ID token (it carries ${mark}), not an access token; send the access token issued with it`,
    );
  }
  // RFC 8417: every security event token carries `events`, such as an untyped logout token.
  if (claims.events !== undefined) {
    return new TokenRefused(
      'the access token is a security event token (it carries "events"), not an access token',
    );
  }
  return undefined;
}

/** `typ` as compared (RFC 7515 4.1.9): case-insensitive, "application/" left out; a non-string is its JSON. */
function typeOf(typ: unknown): string | undefined {
  if (typ === undefined) return undefined;
  if (typeof typ !== "string") return JSON.stringify(typ);
  const type = typ.toLowerCase();
  return type.startsWith("application/") ? type.slice("application/".length) : type;
}

/**
 * What marks claims as an ID token's: its issuer saying so (Keycloak's
 * `typ: "ID"`, Amazon Cognito's `token_use: "id"`), or a claim of ID tokens
 * only. Keycloak copied the `nonce` into its access tokens before version 25
 * (and still does with its "Nonce backwards compatible" mapper): those say
 * `typ: "Bearer"`, so a nonce beside it does not count.
 */
function idTokenMark(claims: Readonly<Record<string, unknown>>): string | undefined {
  if (claims.typ === "ID") return 'typ "ID"';
  if (claims.token_use === "id") return 'token_use "id"';
  for (const claim of ID_TOKEN_CLAIMS) {
    if (claims[claim] === undefined) continue;
    if (claim === "nonce" && claims.typ === "Bearer") continue;
    return JSON.stringify(claim);
  }
  return undefined;
}
