import type { AuthInfo } from "../../../define/auth.js";
import { authInfoOf, expired, notYetValid, wrongAudience } from "./claims.js";
import type { Issuer } from "./issuer.js";
import { IssuerKeys } from "./issuer-keys.js";
import { notAnAccessToken } from "./token-kind.js";
import { reasonOf, TokenRefused, VerifierUnavailable } from "./verdicts.js";

type Jose = typeof import("jose");

/** jose, and the issuer's keys verifications use. */
interface Loaded {
  readonly jose: Jose;
  readonly keys: IssuerKeys;
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
 * for a key id it does not hold or when old, at most once per cooldown after
 * any fetch, failed or not (`issuer-keys.ts`), so neither a stream of tokens
 * with made-up key ids nor an outage of the key set makes the server hammer
 * the issuer. Keys past their age still verify what they signed while they
 * are refetched, and when the refetch fails: an outage of the key set
 * refuses only tokens signed with a key never fetched.
 */
export class JwtVerifier {
  private loading: Promise<Loaded> | undefined;

  constructor(private readonly settings: JwtSettings) {}

  /** Reads the metadata and fetches the keys now: a failure names the URL. */
  async prepare(): Promise<void> {
    const { keys } = await this.load();
    try {
      await keys.fetchNow();
    } catch (error) {
      this.loading = undefined;
      throw new Error(
        `Cannot fetch the signing keys of ${this.settings.issuer.url}: ${reasonOf(error)}; check that it is up (and auth.jwksUri, if set)`,
      );
    }
  }

  private load(): Promise<Loaded> {
    this.loading ??= (async () => {
      const jose = await import("jose");
      const { jwksUri, issuer } = this.settings;
      const uri = jwksUri ?? (await issuer.read()).jwks_uri;
      if (uri === undefined) {
        throw new Error(
          `The authorization server ${issuer.url} publishes no jwks_uri in its metadata; set auth.jwksUri`,
        );
      }
      return { jose, keys: new IssuerKeys(jose, new URL(uri)) };
    })();
    // A failure is not kept: the next request tries again (the issuer's own retry limit applies).
    this.loading.catch(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  async verify(token: string, audience: string): Promise<AuthInfo> {
    let loaded: Loaded;
    try {
      loaded = await this.load();
    } catch (error) {
      throw new VerifierUnavailable(
        "Service Unavailable: the authorization server's keys cannot be fetched to check the access token; try again later",
        reasonOf(error),
      );
    }
    const { jose, keys } = loaded;
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
      const { payload } = await jose.jwtVerify(token, keys.getKey, {
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
