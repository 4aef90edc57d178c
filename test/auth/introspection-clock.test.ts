/**
 * How an introspection answer's times are judged (RFC 7662, at the real
 * issuer, oidc-provider): with the clock tolerance JWTs get
 * (`clockToleranceSeconds`), since an issuer's clock and this server's
 * differ. The clock is faked (Date only); an issuer whose clock is behind is
 * played by moving it on once the issuer has decided its answer. A token
 * accepted within the tolerance past its exp is remembered until the
 * tolerance ends, not introspected again on every request.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type HttpServing, serveHttp } from "../../src/index.js";
import { RESOURCE_SERVER, startIssuer, type TestIssuer } from "./helpers/issuer.js";
import { callEcho, scopedServer } from "./helpers/scoped-server.js";

const TOLERANCE_SECONDS = 20;
/** What the test issuer gives each access token to live. */
const TOKEN_LIFETIME_SECONDS = 600;

let issuer: TestIssuer;
let serving: HttpServing;
/** A `nbf` the issuer's next tokens carry. */
let notBefore: number | undefined;

function advance(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The issuer's next introspection answer reaches this server `seconds` later by its clock. */
function issuerBehindBy(seconds: number): void {
  issuer.beforeIntrospectionAnswer = () => {
    issuer.beforeIntrospectionAnswer = undefined;
    advance(seconds * 1000);
  };
}

/** Every introspection answer is decided `seconds` behind this server's clock, until undone. */
function issuerAlwaysBehindBy(seconds: number): () => void {
  issuer.onIntrospectionRequest = () => advance(-seconds * 1000);
  issuer.beforeIntrospectionAnswer = () => advance(seconds * 1000);
  return () => {
    issuer.onIntrospectionRequest = undefined;
    issuer.beforeIntrospectionAnswer = undefined;
  };
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  issuer = await startIssuer({
    opaque: () => true,
    extraClaims: () => (notBefore === undefined ? {} : { nbf: notBefore }),
  });
  serving = await serveHttp(scopedServer(), {
    port: 0,
    auth: {
      issuer: issuer.url,
      introspection: RESOURCE_SERVER,
      clockToleranceSeconds: TOLERANCE_SECONDS,
    },
  });
});
afterAll(async () => {
  await serving?.close();
  await issuer?.close();
  vi.useRealTimers();
});

const ECHOED = { status: 200, body: { result: { content: [{ type: "text", text: "hi" }] } } };

const refused = (message: string) => ({
  status: 401,
  challenge: `Bearer error="invalid_token", resource_metadata="http://127.0.0.1:${serving.port}/.well-known/oauth-protected-resource/mcp", scope="mcp"`,
  body: { jsonrpc: "2.0", error: { code: -32000, message: `Unauthorized: ${message}` } },
});

it("accepts an active token whose exp is past by less than the tolerance", async () => {
  const token = await issuer.token(serving.url, ["mcp"]);
  issuerBehindBy(TOKEN_LIFETIME_SECONDS + 5);
  expect(await callEcho(serving.url, token)).toMatchObject(ECHOED);
});

it("refuses an active token whose exp is past by more than the tolerance, saying when it expired", async () => {
  const token = await issuer.token(serving.url, ["mcp"]);
  const exp = nowSeconds() + TOKEN_LIFETIME_SECONDS;
  issuerBehindBy(TOKEN_LIFETIME_SECONDS + TOLERANCE_SECONDS + 1);
  expect(await callEcho(serving.url, token)).toEqual(
    refused(`the access token expired at ${new Date(exp * 1000).toISOString()}; get a new one`),
  );
});

it("accepts a token whose nbf is ahead by less than the tolerance", async () => {
  notBefore = nowSeconds() + TOLERANCE_SECONDS - 5;
  try {
    const token = await issuer.token(serving.url, ["mcp"]);
    expect(await callEcho(serving.url, token)).toMatchObject(ECHOED);
  } finally {
    notBefore = undefined;
  }
});

it("refuses a token whose nbf is ahead by more than the tolerance, saying from when it is valid", async () => {
  const nbf = nowSeconds() + TOLERANCE_SECONDS + 60;
  notBefore = nbf;
  try {
    const token = await issuer.token(serving.url, ["mcp"]);
    expect(await callEcho(serving.url, token)).toEqual(
      refused(`the access token is not valid before ${new Date(nbf * 1000).toISOString()}`),
    );
  } finally {
    notBefore = undefined;
  }
});

it("introspects a token used within the tolerance past its exp once, and refuses it from exp plus the tolerance on", async () => {
  const token = await issuer.token(serving.url, ["mcp"]);
  const exp = nowSeconds() + TOKEN_LIFETIME_SECONDS;
  // Behind by more than the tolerance: the issuer says active throughout, exp is this server's to judge.
  const undo = issuerAlwaysBehindBy(TOLERANCE_SECONDS + 10);
  try {
    const asked = issuer.introspections;
    const msPastExp = [1000, 5000, 10_000, 15_000, TOLERANCE_SECONDS * 1000 - 1];
    for (const ms of msPastExp) {
      vi.setSystemTime(exp * 1000 + ms);
      expect(await callEcho(serving.url, token)).toMatchObject(ECHOED);
    }
    expect(issuer.introspections - asked).toBe(1);

    vi.setSystemTime((exp + TOLERANCE_SECONDS) * 1000);
    expect(await callEcho(serving.url, token)).toEqual(
      refused(`the access token expired at ${new Date(exp * 1000).toISOString()}; get a new one`),
    );
    expect(issuer.introspections - asked).toBe(2);
  } finally {
    undo();
  }
});
