import type { AuthInfo } from "../define/auth.js";
import { givenValue } from "../define/given-value.js";

/**
 * OAuth 2.1 for the HTTP endpoint: the server as a resource server that
 * accepts access tokens from one authorization server.
 */
export interface HttpAuthOptions {
  /**
   * The authorization server whose tokens this server accepts, exactly as its
   * metadata names itself (`issuer`), e.g. "https://id.example.com". Its
   * metadata (RFC 8414, or OpenID discovery) gives the JWKS and the
   * introspection endpoint; clients are sent to it.
   */
  issuer?: string;
  /**
   * This server as tokens must name it in `aud`: its canonical URL
   * (RFC 8707), e.g. "https://mcp.example.com/mcp", which the metadata then
   * gives as the `resource`; or whatever identifier your authorization server
   * puts there instead (Okta's "api://default", Entra ID's application id).
   * Default: the endpoint's URL (`publicUrl`, else as the allowed Host
   * header gives it).
   */
  audience?: string;
  /** The issuer's JSON Web Key Set, when its metadata should not be read for it. */
  jwksUri?: string;
  /**
   * JWS algorithms a token may be signed with: asymmetric ones only. Default
   * RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA.
   */
  algorithms?: readonly string[];
  /** Clock skew allowed on `exp` and `nbf` (of a JWT, or of an introspection answer), in seconds. Default 30. */
  clockToleranceSeconds?: number;
  /**
   * RFC 7662 introspection, for opaque (non-JWT) tokens: this server's own
   * client credentials at the issuer; the endpoint defaults to the one its
   * metadata gives.
   */
  introspection?: { clientId: string; clientSecret: string; endpoint?: string };
  /**
   * Verifies a token yourself, in place of the JWT and introspection
   * verifiers: return who it names (with the scopes it grants), or undefined
   * to refuse it (401). Check that it was issued for `audience` (this
   * server). A throw is answered 503 and logged; a result with `expiresAt`
   * is remembered until then (clockToleranceSeconds is not added), and a
   * stream held open for its caller ends then.
   */
  verifyToken?: (
    token: string,
    request: { readonly audience: string },
  ) => AuthInfo | undefined | Promise<AuthInfo | undefined>;
}

export const DEFAULT_ALGORITHMS: readonly string[] = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
];

/** Symmetric and unsigned algorithms: a public key must never become an HMAC secret. */
const REFUSED_ALGORITHMS = /^(none|HS\d+)$/i;

/** The options as the gate uses them, checked. */
export interface ResolvedAuthOptions {
  readonly issuer: string | undefined;
  readonly audience: string | undefined;
  readonly jwksUri: string | undefined;
  readonly algorithms: readonly string[];
  readonly clockToleranceSeconds: number;
  readonly introspection: HttpAuthOptions["introspection"];
  readonly verifyToken: HttpAuthOptions["verifyToken"];
}

export function absoluteUrl(
  value: unknown,
  name: string,
  example = "https://id.example.com",
): string {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:") || url.hash) {
    throw new TypeError(
      `${name} must be an absolute http(s) URL without a fragment, such as "${example}", got ${JSON.stringify(value)}`,
    );
  }
  return value as string;
}

function identifier(value: unknown, name: string): string {
  if (typeof value !== "string" || !/^\S+$/.test(value)) {
    throw new TypeError(
      `${name} must be the identifier tokens carry in aud, such as "https://mcp.example.com/mcp", without spaces; got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Checks the options; undefined when they ask for no OAuth at all. */
export function resolveAuthOptions(
  given: HttpAuthOptions | undefined,
): ResolvedAuthOptions | undefined {
  if (given === undefined) return undefined;
  if (typeof given !== "object" || given === null) {
    throw new TypeError('auth must be an object, such as { issuer: "https://id.example.com" }');
  }
  const { issuer, audience, jwksUri, algorithms, clockToleranceSeconds, introspection } = given;
  const { verifyToken } = given;
  if (verifyToken !== undefined && typeof verifyToken !== "function") {
    throw new TypeError("auth.verifyToken must be a function: (token) => AuthInfo | undefined");
  }
  if (issuer === undefined && verifyToken === undefined) {
    throw new TypeError(
      "auth needs an issuer (the authorization server whose tokens to accept), or a verifyToken function",
    );
  }
  const algs = algorithms ?? DEFAULT_ALGORITHMS;
  if (!Array.isArray(algs) || algs.length === 0) {
    throw new TypeError('auth.algorithms must be a list of JWS algorithms, such as ["RS256"]');
  }
  const refused = algs.find((alg) => typeof alg !== "string" || REFUSED_ALGORITHMS.test(alg));
  if (refused !== undefined) {
    throw new TypeError(
      `auth.algorithms must hold asymmetric algorithms only (RS256, PS256, ES256, EdDSA...), not ${JSON.stringify(refused)}: a token signed with it could be forged`,
    );
  }
  const tolerance = clockToleranceSeconds ?? 30;
  if (!Number.isFinite(tolerance) || tolerance < 0 || tolerance > 300) {
    throw new TypeError(
      `auth.clockToleranceSeconds must be a number of seconds from 0 to 300, got ${givenValue(clockToleranceSeconds)}`,
    );
  }
  if (introspection !== undefined) {
    const { clientId, clientSecret, endpoint } = introspection;
    if (typeof clientId !== "string" || clientId === "" || typeof clientSecret !== "string") {
      throw new TypeError(
        "auth.introspection needs this server's clientId and clientSecret at the authorization server",
      );
    }
    if (endpoint !== undefined) absoluteUrl(endpoint, "auth.introspection.endpoint");
    else if (issuer === undefined) {
      throw new TypeError(
        "auth.introspection needs an endpoint, or an issuer whose metadata gives one",
      );
    }
  }
  return {
    issuer: issuer === undefined ? undefined : absoluteUrl(issuer, "auth.issuer"),
    audience: audience === undefined ? undefined : identifier(audience, "auth.audience"),
    jwksUri: jwksUri === undefined ? undefined : absoluteUrl(jwksUri, "auth.jwksUri"),
    algorithms: algs,
    clockToleranceSeconds: tolerance,
    introspection,
    verifyToken,
  };
}
