/**
 * A real authorization server inside the test: `oidc-provider` (OpenID
 * certified) on 127.0.0.1 port 0, issuing access tokens by the
 * client_credentials grant for the resource a client names (RFC 8707): JWTs
 * signed with its key, or opaque tokens it answers introspection for. A
 * user ("ann") can also sign in to a web client by the authorization code
 * flow, the interaction answered at once, which gives an OpenID Connect ID
 * token beside the access token. Its keys can be rotated (a new provider
 * behind the same URL), and it counts the fetches of its key set.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as jose from "jose";
import Provider from "oidc-provider";
import { signInFlow, type WebClient } from "./sign-in.js";

export const SCOPES = ["mcp", "notes:read", "admin", "deploy"];

/** The client a test's MCP client is. */
export const APP = { clientId: "app", clientSecret: "app-secret-0123456789" };
/** A second client: another caller, with a subject of its own. */
export const OTHER_APP = { clientId: "other-app", clientSecret: "other-secret-0123456789" };
/** A web client a user signs in to (authorization code): its ID tokens carry its id in `aud`. */
export const WEB_APP: WebClient = {
  clientId: "web-app",
  clientSecret: "web-secret-0123456789",
  redirectUri: "http://127.0.0.1/signed-in",
};
/** The user who signs in to WEB_APP. */
export const USER = "ann";
/** The MCP server itself, as it introspects tokens. */
export const RESOURCE_SERVER = { clientId: "mcp-server", clientSecret: "rs-secret-0123456789" };

export interface SigningKey {
  readonly kid: string;
  readonly privateJwk: jose.JWK;
  readonly privateKey: jose.CryptoKey;
  readonly publicKey: jose.CryptoKey;
}

export async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await jose.generateKeyPair("RS256", { extractable: true });
  const privateJwk = { ...(await jose.exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
  return { kid, privateJwk, privateKey, publicKey };
}

export interface TestIssuer {
  /** The issuer identifier: http://127.0.0.1:<port>. */
  readonly url: string;
  /** The key tokens are signed with now. */
  readonly key: SigningKey;
  /** GET requests of its JWKS so far. */
  readonly jwksFetches: number;
  /** Token introspection requests (RFC 7662) so far. */
  readonly introspections: number;
  /**
   * Its JWKS out of reach (the rest of the issuer still serves): answering
   * 503, or holding each request unanswered until the outage ends.
   */
  jwksOutage: "none" | "503" | "hang";
  /** JWKS requests held open by a "hang" outage, whose client still waits. */
  readonly jwksWaiting: number;
  /**
   * Runs as an introspection request arrives, before the issuer decides its
   * answer: with `beforeIntrospectionAnswer`, a test that moves its faked
   * clock back here and on again there plays an issuer whose clock is
   * behind the resource server's on every request.
   */
  onIntrospectionRequest: (() => void) | undefined;
  /**
   * Runs once the issuer has decided an introspection answer, just before it
   * goes out: a test that moves its faked clock here plays an issuer whose
   * clock is behind the resource server's.
   */
  beforeIntrospectionAnswer: (() => void) | undefined;
  /** An access token by client_credentials for `resource`, with these scopes. */
  token(
    resource: string,
    scopes: readonly string[],
    client?: { clientId: string; clientSecret: string },
  ): Promise<string>;
  /**
   * USER signs in to WEB_APP (authorization code, `openid` and `scopes` for
   * `resource`, `nonce` if given): the token endpoint's answer.
   */
  signIn(
    resource: string,
    scopes: readonly string[],
    nonce?: string,
  ): Promise<{ accessToken: string; idToken: string }>;
  /** A new signing key, published in place of the old one (same issuer URL). */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `opaque`: resources whose tokens are opaque (introspected); every other
 * resource gets JWTs. `audience`: what a resource's tokens carry in `aud`
 * (default: the resource itself, as RFC 8707 has it). `pages`: paths answered
 * 200 with this HTML before the provider sees them, as a web site in front of
 * an issuer answers every path it does not know. `extraClaims`: claims every
 * token carries beside its own (in a JWT, and in an introspection answer).
 * `tokenLifetimeSeconds`: how long an access token lives (default 600).
 */
export async function startIssuer(
  options: {
    opaque?: (resource: string) => boolean;
    audience?: (resource: string) => string;
    pages?: Readonly<Record<string, string>>;
    extraClaims?: () => Record<string, unknown>;
    tokenLifetimeSeconds?: number;
  } = {},
) {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let jwksFetches = 0;
  let introspections = 0;
  let jwksOutage: TestIssuer["jwksOutage"] = "none";
  let onIntrospectionRequest: TestIssuer["onIntrospectionRequest"];
  let beforeIntrospectionAnswer: TestIssuer["beforeIntrospectionAnswer"];
  const held = new Set<ServerResponse>();
  const http = createServer((req, res) => {
    if (req.method === "POST" && req.url === "/token/introspection") {
      introspections++;
      onIntrospectionRequest?.();
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        beforeIntrospectionAnswer?.();
        return end(...args);
      }) as ServerResponse["end"];
    }
    if (req.method === "GET" && req.url === "/jwks") {
      jwksFetches++;
      if (jwksOutage === "503") {
        res.writeHead(503).end();
        return;
      }
      if (jwksOutage === "hang") {
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
    }
    const page = req.url === undefined ? undefined : options.pages?.[req.url];
    if (page !== undefined) {
      res.writeHead(200, { "content-type": "text/html" }).end(page);
      return;
    }
    handler?.(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  let key = await signingKey("key-1");

  const providerWith = (signing: SigningKey) => {
    const provider = new Provider(url, {
      clients: [
        {
          client_id: APP.clientId,
          client_secret: APP.clientSecret,
          grant_types: ["client_credentials"],
          redirect_uris: [],
          response_types: [],
          scope: SCOPES.join(" "),
        },
        {
          client_id: OTHER_APP.clientId,
          client_secret: OTHER_APP.clientSecret,
          grant_types: ["client_credentials"],
          redirect_uris: [],
          response_types: [],
          scope: SCOPES.join(" "),
        },
        {
          client_id: RESOURCE_SERVER.clientId,
          client_secret: RESOURCE_SERVER.clientSecret,
          grant_types: [],
          redirect_uris: [],
          response_types: [],
        },
        {
          client_id: WEB_APP.clientId,
          client_secret: WEB_APP.clientSecret,
          grant_types: ["authorization_code"],
          redirect_uris: [WEB_APP.redirectUri],
          response_types: ["code"],
          scope: ["openid", ...SCOPES].join(" "),
        },
      ],
      findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
      jwks: { keys: [signing.privateJwk] },
      extraTokenClaims: () => options.extraClaims?.(),
      scopes: SCOPES,
      // Each lifetime given, as oidc-provider asks (it prints a notice for each one it defaults).
      ttl: {
        ClientCredentials: () => options.tokenLifetimeSeconds ?? 600,
        AccessToken: () => options.tokenLifetimeSeconds ?? 600,
        IdToken: () => 600,
        Grant: () => 600,
        Interaction: () => 600,
        Session: () => 600,
      },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true, allowedPolicy: () => true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => ({
            scope: SCOPES.join(" "),
            audience: options.audience?.(resource) ?? resource,
            accessTokenFormat: options.opaque?.(resource) ? "opaque" : "jwt",
            jwt: { sign: { alg: "RS256" } },
          }),
        },
      },
    });
    const callback = provider.callback();
    return (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith("/interaction/")) {
        signedIn(provider, req, res).catch((error: unknown) => {
          res.writeHead(500).end(String(error));
        });
      } else {
        callback(req, res);
      }
    };
  };
  handler = providerWith(key);

  const issuer: TestIssuer = {
    url,
    get key() {
      return key;
    },
    get jwksFetches() {
      return jwksFetches;
    },
    get introspections() {
      return introspections;
    },
    get jwksOutage() {
      return jwksOutage;
    },
    set jwksOutage(outage) {
      jwksOutage = outage;
      if (outage === "hang") return;
      for (const res of held) {
        held.delete(res);
        res.writeHead(503).end();
      }
    },
    get jwksWaiting() {
      return held.size;
    },
    get onIntrospectionRequest() {
      return onIntrospectionRequest;
    },
    set onIntrospectionRequest(hook) {
      onIntrospectionRequest = hook;
    },
    get beforeIntrospectionAnswer() {
      return beforeIntrospectionAnswer;
    },
    set beforeIntrospectionAnswer(hook) {
      beforeIntrospectionAnswer = hook;
    },
    async token(resource, scopes, client = APP) {
      const response = await fetch(`${url}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          scope: scopes.join(" "),
          resource,
        }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    signIn: (resource, scopes, nonce) =>
      signInFlow(url, WEB_APP, { resource, scope: ["openid", ...scopes].join(" "), nonce }),
    async rotate() {
      key = await signingKey(`key-${Number(key.kid.slice(4)) + 1}`);
      handler = providerWith(key);
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  return issuer;
}

/**
 * The interaction a sign-in is sent to, answered at once: USER is logged in
 * and consents to every scope asked for, of the resource asked for.
 */
async function signedIn(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  const { params } = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId: USER, clientId: String(params.client_id) });
  const scope = String(params.scope);
  // This issuer's scopes are OpenID scopes too (its `scopes`): consent covers them both ways.
  grant.addOIDCScope(scope);
  grant.addResourceScope(String(params.resource), scope);
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: USER }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}
