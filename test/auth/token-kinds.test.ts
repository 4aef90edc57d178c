/**
 * What kind of JWT a bearer token is: an access token passes, any other JWT
 * its issuer signs (an OpenID Connect ID token, a logout token, a security
 * event token, a DPoP proof) is refused, even from the same issuer, with the
 * same keys and an `aud` naming this server. The audience here is a client's
 * id, as in the Entra ID recipe, so an ID token issued to that client by the
 * real authorization server (oidc-provider) names it exactly as an access
 * token does.
 */
import * as jose from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServing, serveHttp } from "../../src/index.js";
import { signingKey, startIssuer, type TestIssuer, USER, WEB_APP } from "./helpers/issuer.js";
import { callEcho, scopedServer } from "./helpers/scoped-server.js";

let issuer: TestIssuer;
let serving: HttpServing;
let metadataUrl: string;

beforeAll(async () => {
  issuer = await startIssuer({ audience: () => WEB_APP.clientId });
  serving = await serveHttp(scopedServer(), {
    port: 0,
    auth: { issuer: issuer.url, audience: WEB_APP.clientId },
  });
  metadataUrl = `${new URL(serving.url).origin}/.well-known/oauth-protected-resource/mcp`;
});
afterAll(async () => {
  await serving?.close();
  await issuer?.close();
});

async function expectRefused(token: string, message: string) {
  expect(await callEcho(serving.url, token)).toEqual({
    status: 401,
    challenge: `Bearer error="invalid_token", resource_metadata="${metadataUrl}", scope="mcp"`,
    body: { jsonrpc: "2.0", error: { code: -32000, message: `Unauthorized: ${message}` } },
  });
}

async function expectAccepted(token: string) {
  const answer = await callEcho(serving.url, token);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ result: { content: [{ type: "text", text: "hi" }] } });
}

/**
 * A JWT signed with the issuer's own key (or `key`), with `header` (alg and
 * kid filled in) and the claims of an access token this server would accept,
 * `claims` over them.
 */
async function signed(
  header: Partial<jose.JWTHeaderParameters>,
  claims: jose.JWTPayload = {},
  key?: { kid: string; privateKey: jose.CryptoKey },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const signing = key ?? {
    kid: issuer.key.kid,
    privateKey: (await jose.importJWK(issuer.key.privateJwk)) as jose.CryptoKey,
  };
  return new jose.SignJWT({
    iss: issuer.url,
    aud: WEB_APP.clientId,
    sub: USER,
    client_id: WEB_APP.clientId,
    scope: "mcp",
    iat: now,
    exp: now + 600,
    ...claims,
  })
    .setProtectedHeader({ alg: "RS256", kid: signing.kid, ...header })
    .sign(signing.privateKey);
}

const BACKCHANNEL_LOGOUT = { "http://schemas.openid.net/event/backchannel-logout": {} };

describe("an OpenID Connect ID token the issuer really issued", () => {
  it("is refused, while the access token of the same sign-in passes", async () => {
    const { idToken, accessToken } = await issuer.signIn(serving.url, ["mcp"], "n-0S6_WzA2Mj");
    // What oidc-provider issues: the ID token untyped, for the client, with the nonce.
    expect(jose.decodeProtectedHeader(idToken)).not.toHaveProperty("typ");
    expect(jose.decodeJwt(idToken)).toMatchObject({
      iss: issuer.url,
      aud: WEB_APP.clientId,
      sub: USER,
      nonce: "n-0S6_WzA2Mj",
    });
    await expectRefused(
      idToken,
      'the access token is an OpenID Connect ID token (it carries "nonce"), not an access token; send the access token issued with it',
    );
    expect(jose.decodeProtectedHeader(accessToken).typ).toBe("at+jwt");
    await expectAccepted(accessToken);
  });
});

describe("ID tokens by the marks other issuers give them", () => {
  it.each([
    ["Keycloak's typ", { typ: "ID", azp: WEB_APP.clientId }, 'it carries typ "ID"'],
    ["Amazon Cognito's token_use", { token_use: "id" }, 'it carries token_use "id"'],
    ["a hash of the access token", { at_hash: "77QmUPtjPfzWtF2AnpK9RQ" }, 'it carries "at_hash"'],
    ["a hash of the code", { c_hash: "LDktKdoQak3Pk0cnXxCltA" }, 'it carries "c_hash"'],
    ["a hash of the state", { s_hash: "x7kd3VX6MZsrCVAsDHxvEA" }, 'it carries "s_hash"'],
  ])("%s is refused", async (_mark, claims, evidence) => {
    await expectRefused(
      await signed({ typ: "JWT" }, claims),
      `the access token is an OpenID Connect ID token (${evidence}), not an access token; send the access token issued with it`,
    );
  });
});

describe("other JWTs of the issuer", () => {
  it.each([
    ["logout+jwt"],
    ["application/logout+jwt"],
    ["secevent+jwt"],
    ["dpop+jwt"],
    ["token-introspection+jwt"],
  ])("typ %s is refused, naming its type", async (typ) => {
    const token = await signed({ typ }, { events: BACKCHANNEL_LOGOUT, sid: "s-1" });
    await expectRefused(
      token,
      `the access token is a JWT of type ${JSON.stringify(typ)}, not an access token`,
    );
  });

  it("an untyped logout token (a security event token) is refused by its events", async () => {
    const token = await signed({ typ: "JWT" }, { events: BACKCHANNEL_LOGOUT, sid: "s-1" });
    await expectRefused(
      token,
      'the access token is a security event token (it carries "events"), not an access token',
    );
  });

  it("is refused before its signature is checked: a key the issuer does not publish costs nothing", async () => {
    const stranger = await signingKey("stranger");
    const before = issuer.jwksFetches;
    await expectRefused(
      await signed({ typ: "logout+jwt" }, {}, stranger),
      'the access token is a JWT of type "logout+jwt", not an access token',
    );
    expect(issuer.jwksFetches).toBe(before);
  });
});

describe("access tokens", () => {
  it.each([
    ["no typ (Okta)", {}],
    ['typ "JWT" (Auth0, Entra ID, Keycloak)', { typ: "JWT" }],
    ['typ "at+jwt" (RFC 9068)', { typ: "at+jwt" }],
    ['typ "application/at+jwt"', { typ: "application/at+jwt" }],
    ['typ "AT+JWT"', { typ: "AT+JWT" }],
  ])("with %s pass", async (_kind, header) => {
    await expectAccepted(await signed(header));
  });

  it("with a nonce that Keycloak copies into its access tokens (typ Bearer) pass", async () => {
    await expectAccepted(await signed({ typ: "JWT" }, { typ: "Bearer", nonce: "n-1", azp: "app" }));
  });

  it("typed at+jwt pass on their issuer's word, whatever else they carry", async () => {
    await expectAccepted(await signed({ typ: "at+jwt" }, { nonce: "n-1" }));
  });

  it("of a client by client_credentials, with no scopes at all, pass (and lack the tool's scope)", async () => {
    const answer = await callEcho(
      serving.url,
      await signed({ typ: "JWT" }, { scope: undefined, sub: "app" }),
    );
    expect(answer.status).toBe(403);
    expect(answer.challenge).toBe(
      `Bearer error="insufficient_scope", resource_metadata="${metadataUrl}", scope="mcp"`,
    );
  });
});
