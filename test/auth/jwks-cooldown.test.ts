/**
 * How often the server fetches the issuer's key set (at the real issuer,
 * oidc-provider, which counts the fetches): at most once per cooldown after
 * any fetch, failed or not, whatever tokens come, so no caller can make it
 * hammer the authorization server. Meanwhile tokens are judged by the keys
 * known, each with the answer it gets when a fetch is made. The clock is
 * faked (Date only), so the cooldown and the keys' age pass without waiting.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type HttpServing, serveHttp } from "../../src/index.js";
import { forgedToken } from "./helpers/forged-token.js";
import { type SigningKey, signingKey, startIssuer, type TestIssuer } from "./helpers/issuer.js";
import { KEYS_UNAVAILABLE } from "./helpers/keys-unavailable.js";
import { callEcho, scopedServer } from "./helpers/scoped-server.js";

/** Past the cooldown the server keeps between two fetches of the keys. */
const PAST_COOLDOWN_MS = 31_000;
const REQUESTS = 5;

let issuer: TestIssuer;
let serving: HttpServing;
let stranger: SigningKey;

function advance(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

/** A token signed with a key the issuer never published, under key id `kid`. */
function unknownKeyToken(kid: string): Promise<string> {
  return forgedToken(
    stranger.privateKey,
    { alg: "RS256", kid },
    { issuer: issuer.url, resource: serving.url },
  );
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  issuer = await startIssuer();
  stranger = await signingKey("stranger");
  serving = await serveHttp(scopedServer(), { port: 0, auth: { issuer: issuer.url } });
});
afterAll(async () => {
  issuer.jwksOutage = "none";
  await serving?.close();
  await issuer?.close();
  vi.useRealTimers();
});

it("while the key set answers 503, tokens of unknown key ids are each a 503 and cost one fetch per cooldown", async () => {
  advance(PAST_COOLDOWN_MS);
  issuer.jwksOutage = "503";
  const before = issuer.jwksFetches;
  for (let i = 0; i < REQUESTS; i++) {
    expect(await callEcho(serving.url, await unknownKeyToken(`unknown-${i}`))).toEqual(
      KEYS_UNAVAILABLE,
    );
  }
  expect(issuer.jwksFetches - before).toBe(1);
  advance(PAST_COOLDOWN_MS);
  expect(await callEcho(serving.url, await unknownKeyToken("unknown-later"))).toEqual(
    KEYS_UNAVAILABLE,
  );
  expect(issuer.jwksFetches - before).toBe(2);
});

it("while the key set answers 503 and the keys are past their age, new tokens of a known key pass and cost one fetch per cooldown", async () => {
  advance(11 * 60_000);
  const before = issuer.jwksFetches;
  for (let i = 0; i < REQUESTS; i++) {
    expect((await callEcho(serving.url, await issuer.token(serving.url, ["mcp"]))).status).toBe(
      200,
    );
  }
  // Those refetches run behind the answers; this one is awaited by its request, and follows them.
  advance(PAST_COOLDOWN_MS);
  expect(await callEcho(serving.url, await unknownKeyToken("unknown-after"))).toEqual(
    KEYS_UNAVAILABLE,
  );
  expect(issuer.jwksFetches - before).toBe(2);
});

it("once the key set answers again, an unknown key id is a 401 after one fetch, and the next ones cost none", async () => {
  issuer.jwksOutage = "none";
  advance(PAST_COOLDOWN_MS);
  const before = issuer.jwksFetches;
  for (let i = 0; i < REQUESTS; i++) {
    const kid = `unknown-back-${i}`;
    expect(await callEcho(serving.url, await unknownKeyToken(kid))).toEqual({
      status: 401,
      challenge: `Bearer error="invalid_token", resource_metadata="http://127.0.0.1:${serving.port}/.well-known/oauth-protected-resource/mcp", scope="mcp"`,
      body: {
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message: `Unauthorized: the access token is signed with a key (kid "${kid}") that ${issuer.url} does not publish`,
        },
      },
    });
  }
  expect(issuer.jwksFetches - before).toBe(1);
});
