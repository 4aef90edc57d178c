import type { AuthInfo } from "../../../define/auth.js";
import { authInfoOf, namesAudience, outsideValidity, wrongAudience } from "./claims.js";
import type { Issuer } from "./issuer.js";
import { reasonOf, TokenRefused, VerifierUnavailable } from "./verdicts.js";

const FETCH_TIMEOUT_MS = 5000;

export interface IntrospectionSettings {
  readonly issuer: Issuer | undefined;
  readonly endpoint: string | undefined;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Clock skew allowed on the answer's `exp` and `nbf`, as on a JWT's. */
  readonly clockToleranceSeconds: number;
}

const UNAVAILABLE =
  "Service Unavailable: the authorization server cannot be reached to check the access token; try again later";

/**
 * Opaque access tokens, checked by asking the issuer (RFC 7662) with this
 * server's own client credentials: the token must be active, for this
 * resource, from this issuer, and within its `exp` and `nbf` (the clock
 * tolerance allowed, as for JWTs).
 */
export class IntrospectionVerifier {
  constructor(private readonly settings: IntrospectionSettings) {}

  async prepare(): Promise<void> {
    await this.endpoint(false);
  }

  private async endpoint(forRequest: boolean): Promise<string> {
    const { endpoint, issuer } = this.settings;
    if (endpoint !== undefined || issuer === undefined) return endpoint ?? "";
    const metadata = forRequest ? await issuer.forRequest() : await issuer.read();
    if (metadata.introspection_endpoint === undefined) {
      const message = `The authorization server ${issuer.url} publishes no introspection_endpoint in its metadata; set auth.introspection.endpoint`;
      if (forRequest) throw new VerifierUnavailable(UNAVAILABLE, message);
      throw new Error(message);
    }
    return metadata.introspection_endpoint;
  }

  async verify(token: string, audience: string): Promise<AuthInfo> {
    const url = await this.endpoint(true);
    const { clientId, clientSecret, issuer } = this.settings;
    // RFC 6749 §2.3.1: each part form-encoded before Basic encoding.
    const basic = btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`);
    let answer: Record<string, unknown>;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Basic ${basic}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!response.ok) {
        const text = await response.text().catch(() => "");
        throw new Error(`${url} answered ${response.status} ${text.slice(0, 200)}`);
      }
      answer = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      throw new VerifierUnavailable(UNAVAILABLE, `token introspection failed: ${reasonOf(error)}`);
    }
    if (answer.active !== true) {
      throw new TokenRefused(
        "the access token is not active (the authorization server says it expired, was revoked or is unknown)",
      );
    }
    if (issuer !== undefined && answer.iss !== undefined && answer.iss !== issuer.url) {
      throw new TokenRefused(
        `the access token was issued by ${JSON.stringify(answer.iss)}, not by this server's authorization server (${issuer.url})`,
      );
    }
    if (!namesAudience(answer.aud, audience)) throw wrongAudience(answer.aud, audience);
    const outside = outsideValidity(answer, this.settings.clockToleranceSeconds);
    if (outside !== undefined) throw outside;
    return authInfoOf(answer);
  }
}
