import { timingSafeEqual } from "node:crypto";
import type { AuthInfo } from "../../../define/auth.js";
import { nameByToken } from "../../../server/index.js";
import type { ResolvedAuthOptions } from "../../../settings/auth-options.js";
import type { ResolvedHttpOptions } from "../../../settings/http-options.js";
import type { RequestHead, ResponseHeaders } from "../exchange.js";
import { endpointUrl, resourceMetadataUrl } from "../metadata.js";
import { TRANSPORT_ERROR } from "../responses.js";
import type { Refusal } from "../security.js";
import { bearerChallenge, bearerToken } from "./bearer.js";
import { IntrospectionVerifier } from "./introspection.js";
import { Issuer } from "./issuer.js";
import { JwtVerifier } from "./jwt-verifier.js";
import { reasonOf, TokenRefused, VerifierUnavailable } from "./verdicts.js";
import { type Admission, VerifiedTokens } from "./verified-tokens.js";

export type { Admission } from "./verified-tokens.js";

/** What the gate says of a request: let through (with its caller), or refused. */
export type Verdict = Admission | Refusal;

/** What the gate needs of the server it guards. */
export interface Guarded {
  /** Every scope the definitions need, and those all of them share. */
  scopes(): { readonly declared: readonly string[]; readonly shared: readonly string[] };
  warn(message: string): void;
}

const LOG_INTERVAL_MS = 60_000;

/** No caller to name: no auth, or the static token. */
const OPEN: Admission = { auth: undefined };

type Verify = (token: string, audience: string) => Promise<AuthInfo>;

/**
 * The door's one check of who is calling: the static token (compared in
 * constant time), then an OAuth access token, verified once and remembered
 * until it is no longer accepted, so a request with a known token is answered without
 * waiting (the verdict is a value, not a promise). A refusal carries the
 * RFC 6750 challenge that sends a client to the protected-resource metadata.
 */
export class AuthGate {
  private readonly verify: Verify | undefined;
  private readonly prepareAll: () => Promise<void>;
  private readonly verified = new VerifiedTokens();
  /** Checks under way, by audience and token: requests that bring the same new token share one. */
  private readonly verifying = new Map<string, Promise<AuthInfo>>();
  /** When each line was last logged: a line repeats at most once per LOG_INTERVAL_MS. */
  private readonly logged = new Map<string, number>();

  constructor(
    private readonly options: ResolvedHttpOptions,
    private readonly server: Guarded,
  ) {
    const { auth } = options;
    const built = auth === undefined ? undefined : verifierOf(auth);
    this.verify = built?.verify;
    this.prepareAll = built?.prepare ?? (() => Promise.resolve());
    const named = auth?.issuer !== undefined || options.authorizationServers.length > 0;
    if (auth?.verifyToken !== undefined && !named) {
      this.log(
        "auth.verifyToken is set without auth.issuer or authorizationServers, so the protected-resource metadata names no authorization server and MCP clients cannot find where to get a token; set authorizationServers to the issuer of the tokens verifyToken accepts",
      );
    }
    if (auth !== undefined && auth.audience === undefined && options.publicUrl === undefined) {
      if (options.allowedHosts === undefined) {
        throw new TypeError(
          "auth.audience is needed when any Host is accepted: set it (--auth-audience, MCP_DIR_AUTH_AUDIENCE) to the URL clients use for this endpoint, e.g. https://mcp.example.com/mcp, so a token for another resource cannot pass for one for this server",
        );
      }
    }
  }

  /** Whether OAuth is on (not only the static token). */
  get oauth(): boolean {
    return this.verify !== undefined;
  }

  /** Reads the issuer's metadata and keys: an unreachable issuer fails the start, naming the URL. */
  prepare(): Promise<void> {
    return this.prepareAll();
  }

  /** The resource tokens must be for: the configured audience, else this endpoint's URL. */
  audienceOf(req: RequestHead): string {
    const { options } = this;
    return options.auth?.audience ?? endpointUrl(req, options);
  }

  check(req: RequestHead): Verdict | Promise<Verdict> {
    const token = bearerToken(req.headers);
    if (token === undefined) return this.missing(req);
    const { authToken } = this.options;
    if (authToken !== undefined && sameSecret(token, authToken)) return OPEN;
    if (this.verify === undefined) {
      return this.unauthorized(req, "Unauthorized: the bearer token is not valid for this server");
    }
    const audience = this.audienceOf(req);
    return this.verified.get(token, audience) ?? this.verifyNew(req, token, audience);
  }

  private async verifyNew(req: RequestHead, token: string, audience: string): Promise<Verdict> {
    try {
      const auth = await this.verifyOnce(token, audience);
      nameByToken(auth, token);
      const admission: Admission = { auth };
      const until = this.acceptedUntil(auth);
      if (until !== undefined) this.verified.set(token, audience, admission, until);
      return admission;
    } catch (error) {
      if (error instanceof TokenRefused) {
        if (error.logLine !== undefined) this.log(error.logLine);
        return this.unauthorized(req, `Unauthorized: ${error.message}`);
      }
      const unavailable =
        error instanceof VerifierUnavailable
          ? error
          : new VerifierUnavailable(
              "Service Unavailable: the access token could not be checked; try again later",
              `checking an access token failed: ${reasonOf(error)}`,
            );
      this.log(unavailable.logLine);
      return {
        status: 503,
        code: TRANSPORT_ERROR,
        message: unavailable.message,
        headers: { "retry-after": "5" },
      };
    }
  }

  /** One check of a token at a time, however many requests bring it before its answer. */
  private verifyOnce(token: string, audience: string): Promise<AuthInfo> {
    const key = `${audience}\n${token}`;
    let verifying = this.verifying.get(key);
    if (verifying === undefined) {
      verifying = (this.verify as Verify)(token, audience);
      this.verifying.set(key, verifying);
      const done = () => this.verifying.delete(key);
      verifying.then(done, done);
    }
    return verifying;
  }

  /**
   * No bearer token: none sent, or credentials of another scheme. Either way
   * the challenge names no error (RFC 6750, section 3.1): nothing was a token.
   */
  private missing(req: RequestHead): Refusal {
    const sent = req.headers.authorization !== undefined;
    let message: string;
    if (sent) {
      message = this.oauth
        ? "Unauthorized: the Authorization header must be Bearer <access token>"
        : "Unauthorized: the bearer token is not valid for this server";
    } else {
      message = this.oauth
        ? `Unauthorized: send an access token as Authorization: Bearer <token>; the metadata at ${resourceMetadataUrl(req, this.options)} names the authorization server that issues them`
        : "Unauthorized: send the server's token as Authorization: Bearer <token>";
    }
    return {
      status: 401,
      code: TRANSPORT_ERROR,
      message,
      headers: { "www-authenticate": this.challenge(req) },
    };
  }

  private unauthorized(req: RequestHead, message: string): Refusal {
    return {
      status: 401,
      code: TRANSPORT_ERROR,
      message,
      headers: { "www-authenticate": this.challenge(req, "invalid_token") },
    };
  }

  /** The 401 challenge: the metadata, and with OAuth the scopes every definition needs. */
  private challenge(req: RequestHead, error?: "invalid_token"): string {
    const metadataUrl = resourceMetadataUrl(req, this.options);
    const scopes = this.oauth ? this.server.scopes().shared : undefined;
    return bearerChallenge(
      error === undefined ? { metadataUrl, scopes } : { error, metadataUrl, scopes },
    );
  }

  /**
   * When a verified token stops being accepted (epoch ms), undefined without
   * an expiry: until then it is let through without being verified again,
   * and a stream held open for its caller ends then. A JWT or an
   * introspection answer is accepted until its expiry plus the clock
   * tolerance, as those verifiers judge it; a `verifyToken` judges expiry
   * itself, without the tolerance: its result until its `expiresAt`, as
   * documented.
   */
  acceptedUntil(auth: AuthInfo): number | undefined {
    const { expiresAt } = auth;
    if (expiresAt === undefined) return undefined;
    const { auth: options } = this.options;
    const tolerance =
      options?.verifyToken === undefined ? (options?.clockToleranceSeconds ?? 0) : 0;
    return (expiresAt + tolerance) * 1000;
  }

  /** The 403 headers for a call the caller's token lacks `scopes` for: every scope, in one challenge. */
  forbidden(req: RequestHead, scopes: readonly string[]): ResponseHeaders {
    const metadataUrl = resourceMetadataUrl(req, this.options);
    return {
      "www-authenticate": bearerChallenge({ error: "insufficient_scope", metadataUrl, scopes }),
    };
  }

  /** What the protected-resource metadata adds: the resource, its authorization servers and scopes. */
  metadataFields(req: RequestHead): Record<string, unknown> {
    const { options } = this;
    // The resource is the audience when that is this server's URL (RFC 8707), as it should be.
    const { audience } = options.auth ?? {};
    const resource =
      audience !== undefined && /^https?:\/\//.test(audience)
        ? audience
        : endpointUrl(req, options);
    const fields: Record<string, unknown> = { resource };
    const issuer = options.auth?.issuer;
    const servers =
      options.authorizationServers.length > 0
        ? options.authorizationServers
        : issuer === undefined
          ? []
          : [issuer];
    if (servers.length > 0) fields.authorization_servers = servers;
    const { declared } = this.server.scopes();
    if (this.oauth && declared.length > 0) fields.scopes_supported = declared;
    return fields;
  }

  /** A line for the operator, so a misconfiguration or an outage is seen but does not flood the log. */
  private log(line: string): void {
    const now = Date.now();
    const last = this.logged.get(line);
    if (last !== undefined && now - last < LOG_INTERVAL_MS) return;
    if (this.logged.size >= 100) this.logged.clear();
    this.logged.set(line, now);
    this.server.warn(`auth: ${line}`);
  }
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A token with three dot-separated parts is a JWT; anything else is opaque. */
function looksLikeJwt(token: string): boolean {
  const first = token.indexOf(".");
  return first > 0 && token.indexOf(".", first + 1) > first && token.split(".").length === 3;
}

/** The verifier the options ask for: theirs, or JWTs and (or) introspection against the issuer. */
function verifierOf(auth: ResolvedAuthOptions): { verify: Verify; prepare: () => Promise<void> } {
  const { verifyToken } = auth;
  if (verifyToken !== undefined) {
    return {
      verify: async (token, audience) => customVerdict(await verifyToken(token, { audience })),
      prepare: () => Promise.resolve(),
    };
  }
  const issuer = auth.issuer === undefined ? undefined : new Issuer(auth.issuer);
  const jwt =
    issuer === undefined
      ? undefined
      : new JwtVerifier({
          issuer,
          jwksUri: auth.jwksUri,
          algorithms: auth.algorithms,
          clockToleranceSeconds: auth.clockToleranceSeconds,
        });
  const introspection =
    auth.introspection === undefined
      ? undefined
      : new IntrospectionVerifier({
          issuer,
          endpoint: auth.introspection.endpoint,
          ...auth.introspection,
          clockToleranceSeconds: auth.clockToleranceSeconds,
        });
  return {
    verify: (token, audience) => {
      if (jwt !== undefined && (introspection === undefined || looksLikeJwt(token))) {
        return jwt.verify(token, audience);
      }
      return (introspection as IntrospectionVerifier).verify(token, audience);
    },
    prepare: async () => {
      await jwt?.prepare();
      await introspection?.prepare();
    },
  };
}

/** What a `verifyToken` returned, as the caller it names; undefined refuses the token. */
function customVerdict(result: AuthInfo | undefined): AuthInfo {
  if (result === undefined) {
    throw new TokenRefused("the access token is not valid for this server");
  }
  if (typeof result !== "object" || result === null || !Array.isArray(result.scopes)) {
    throw new Error(
      `verifyToken returned ${JSON.stringify(result)}; return { subject, clientId, scopes: [...], expiresAt, claims }, or undefined to refuse the token`,
    );
  }
  return {
    subject: result.subject,
    clientId: result.clientId,
    scopes: result.scopes,
    expiresAt: result.expiresAt,
    claims: result.claims ?? {},
  };
}
