import type { AuthInfo } from "../../../define/auth.js";
import { authInfoOf, expired, notYetValid, wrongAudience } from "./claims.js";
import type { Issuer } from "./issuer.js";
import { notAnAccessToken } from "./token-kind.js";
import { reasonOf, TokenRefused, VerifierUnavailable } from "./verdicts.js";

type Jose = typeof import("jose");
type KeySet = ReturnType<Jose["createRemoteJWKSet"]>;
type GetKey = Parameters<Jose["jwtVerify"]>[1];

/** No refetch of the key set within this time of the last one, whatever tokens come. */
const JWKS_COOLDOWN_MS = 30_000;
/** Keys are fetched again when a token needs them and they are older than this. */
const JWKS_MAX_AGE_MS = 10 * 60_000;
const JWKS_TIMEOUT_MS = 5000;
/** jose's answers about the keys themselves, as opposed to a failure to fetch them. */
const KEY_SET_CODES = new Set([
  "ERR_JWKS_NO_MATCHING_KEY",
  "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
  "ERR_JOSE_NOT_SUPPORTED",
]);

/** jose, the remote key set, and the key getter verifications use (lastKnownKeys). */
interface Loaded {
  readonly jose: Jose;
  readonly keySet: KeySet;
  readonly getKey: GetKey;
}

export interface JwtSettings {
  readonly issuer: Issuer;
  /** The key set's URL when configured; else from the issuer's metadata. */
  readonly jwksUri: string | undefined;
  readonly algorithms: readonly string[];
  readonly clockToleranceSeconds: number;
}

/**
 * Access tokens as JWTs signed by the issuer (RFC 9068), verified with
 * `jose` against its JWKS: an access token, not another kind of JWT
 * (`token-kind.ts`), the algorithm from the allowlist (never `none`, never
 * HMAC), `iss`, `aud` naming this resource, `exp` and `nbf` within the
 * clock tolerance. The key set is fetched once, cached, and fetched again
 * for a key id it does not hold, at most once per cooldown (jose's remote
 * key set), so a stream of tokens with made-up key ids costs one fetch.
 * Keys past their age still verify what they signed while they are
 * refetched, and when the refetch fails: an outage of the key set refuses
 * only tokens signed with a key never fetched.
 */
export class JwtVerifier {
  private keys: Promise<Loaded> | undefined;

  constructor(private readonly settings: JwtSettings) {}

  /** Reads the metadata and fetches the keys now: a failure names the URL. */
  async prepare(): Promise<void> {
    const { keySet } = await this.keySet();
    try {
      await keySet.reload();
    } catch (error) {
      this.keys = undefined;
      throw new Error(
        `Cannot fetch the signing keys of ${this.settings.issuer.url}: ${reasonOf(error)}; check that it is up (and auth.jwksUri, if set)`,
      );
    }
  }

  private keySet(): Promise<Loaded> {
    this.keys ??= (async () => {
      const jose = await import("jose");
      const { jwksUri, issuer } = this.settings;
      const uri = jwksUri ?? (await issuer.read()).jwks_uri;
      if (uri === undefined) {
        throw new Error(
          `The authorization server ${issuer.url} publishes no jwks_uri in its metadata; set auth.jwksUri`,
        );
      }
      const keySet = jose.createRemoteJWKSet(new URL(uri), {
        cooldownDuration: JWKS_COOLDOWN_MS,
        cacheMaxAge: JWKS_MAX_AGE_MS,
        timeoutDuration: JWKS_TIMEOUT_MS,
      });
      return { jose, keySet, getKey: lastKnownKeys(jose, keySet) };
    })();
    // A failure is not kept: the next request tries again (the issuer's own retry limit applies).
    this.keys.catch(() => {
      this.keys = undefined;
    });
    return this.keys;
  }

  async verify(token: string, audience: string): Promise<AuthInfo> {
    let loaded: Loaded;
    try {
      loaded = await this.keySet();
    } catch (error) {
      throw new VerifierUnavailable(
        "Service Unavailable: the authorization server's keys cannot be fetched to check the access token; try again later",
        reasonOf(error),
      );
    }
    const { jose, getKey } = loaded;
    const { issuer, algorithms, clockToleranceSeconds } = this.settings;
    let header: ReturnType<Jose["decodeProtectedHeader"]>;
    let claims: ReturnType<Jose["decodeJwt"]>;
    try {
      header = jose.decodeProtectedHeader(token);
      claims = jose.decodeJwt(token);
    } catch {
      throw new TokenRefused(
        `the access token is not a JWT this server can read; it accepts JWTs signed by ${issuer.url}`,
      );
    }
    // Checked before the keys are touched: a foreign token costs no key fetch.
    const otherKind = notAnAccessToken(header, claims);
    if (otherKind !== undefined) throw otherKind;
    if (typeof header.alg !== "string" || !algorithms.includes(header.alg)) {
      throw new TokenRefused(
        `the access token is signed with ${JSON.stringify(header.alg ?? null)}, which this server does not accept (it accepts ${algorithms.join(", ")})`,
      );
    }
    if (claims.iss !== issuer.url) {
      throw new TokenRefused(
        `the access token was issued by ${JSON.stringify(claims.iss ?? null)}, not by this server's authorization server (${issuer.url})`,
      );
    }
    try {
      const { payload } = await jose.jwtVerify(token, getKey, {
        issuer: issuer.url,
        audience,
        algorithms: [...algorithms],
        clockTolerance: clockToleranceSeconds,
        requiredClaims: ["exp"],
      });
      return authInfoOf(payload);
    } catch (error) {
      throw joseVerdict(error, header.kid, claims, audience, issuer.url);
    }
  }
}

/**
 * The remote key set, with the keys it last fetched used at once when they
 * are past their age (jose would refetch them first, making each new token
 * wait, and throw if it cannot): the refetch goes on in the background, and
 * only a key not among them waits for it. A key no fetch brings keeps the
 * fetch's error: the token could not be checked, which is a 503, not a 401.
 */
function lastKnownKeys(jose: Jose, keySet: KeySet): GetKey {
  // Built from the keys once, and again after each fetch (jwks() gives a copy each time).
  let local: ReturnType<Jose["createLocalJWKSet"]> | undefined;
  const lastKnown = () => {
    if (local === undefined) {
      const jwks = keySet.jwks();
      if (jwks !== undefined) local = jose.createLocalJWKSet(jwks);
    }
    return local;
  };
  const fetched = () => {
    local = undefined;
  };
  return async (header, token) => {
    const known = keySet.fresh ? undefined : lastKnown();
    if (known !== undefined) {
      keySet.reload().then(fetched, () => {});
      try {
        return await known(header, token);
      } catch {
        // Not among the old keys: wait for the refetch, as for a fresh set.
      }
    }
    try {
      return await keySet(header, token).finally(fetched);
    } catch (error) {
      const { code } = (error ?? {}) as { code?: string };
      const stale = lastKnown();
      if (stale === undefined || (code !== undefined && KEY_SET_CODES.has(code))) throw error;
      try {
        return await stale(header, token);
      } catch {
        throw error;
      }
    }
  };
}

/** What a jose error means for the client: a 401 saying what the token carried, or a 503. */
function joseVerdict(
  error: unknown,
  kid: string | undefined,
  claims: Record<string, unknown>,
  audience: string,
  issuer: string,
): Error {
  const { code, claim } = (error ?? {}) as { code?: string; claim?: string };
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return expired(claims.exp);
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (claim === "aud") return wrongAudience(claims.aud, audience);
      if (claim === "nbf") return notYetValid(claims.nbf);
      if (claim === "exp") return new TokenRefused("the access token has no expiry (exp)");
      return new TokenRefused(`the access token's ${claim} claim is not valid`);
    case "ERR_JWKS_NO_MATCHING_KEY":
      return new TokenRefused(
        `the access token is signed with a key (kid ${JSON.stringify(kid ?? null)}) that ${issuer} does not publish`,
      );
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return new TokenRefused("the access token's signature does not verify with the issuer's key");
    case "ERR_JWT_INVALID":
    case "ERR_JWS_INVALID":
    case "ERR_JOSE_ALG_NOT_ALLOWED":
    case "ERR_JOSE_NOT_SUPPORTED":
      return new TokenRefused(`the access token is not a valid JWT: ${reasonOf(error)}`);
    default:
      return new VerifierUnavailable(
        "Service Unavailable: the authorization server's keys cannot be fetched to check the access token; try again later",
        `cannot fetch the signing keys of ${issuer}: ${reasonOf(error)}`,
      );
  }
}
