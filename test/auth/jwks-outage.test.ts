/**
 * The issuer's key set out of reach while the server runs, against the real
 * issuer (oidc-provider) whose JWKS hangs or answers 503: keys fetched before
 * still verify the tokens they signed, without waiting for the refetch, and a
 * token no known key signed is a 503, not a 401, since the server could not
 * check it.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type HttpServing, serveHttp } from "../../src/index.js";
import { startIssuer, type TestIssuer } from "./helpers/issuer.js";
import { KEYS_UNAVAILABLE } from "./helpers/keys-unavailable.js";
import { callEcho, scopedServer } from "./helpers/scoped-server.js";

let issuer: TestIssuer;
let serving: HttpServing;
const warnings: string[] = [];

/** Date only, faked, so the cached keys grow old (10 minutes) without waiting. */
function advance(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  issuer = await startIssuer();
  const server = scopedServer({ warn: (line) => warnings.push(line) });
  serving = await serveHttp(server, { port: 0, auth: { issuer: issuer.url } });
});
afterAll(async () => {
  issuer.jwksOutage = "none";
  await serving?.close();
  await issuer?.close();
  vi.useRealTimers();
});

it("a new token signed with a known key is answered without waiting for the old keys' refetch", async () => {
  expect((await callEcho(serving.url, await issuer.token(serving.url, ["mcp"]))).status).toBe(200);
  advance(11 * 60_000);
  issuer.jwksOutage = "hang";
  const answer = await callEcho(serving.url, await issuer.token(serving.url, ["mcp"]));
  expect(answer.status).toBe(200);
  // The refetch went on behind the answer: it is still held, not given up after its timeout.
  await expect.poll(() => issuer.jwksWaiting).toBe(1);
  issuer.jwksOutage = "none";
});

it("a new token signed with a known key passes though the keys are old and their refetch fails", async () => {
  advance(60_000);
  issuer.jwksOutage = "503";
  const answer = await callEcho(serving.url, await issuer.token(serving.url, ["mcp"]));
  expect(answer.status).toBe(200);
});

it("a token signed with a key the server never fetched is a 503 while the keys are out of reach", async () => {
  await issuer.rotate();
  advance(60_000);
  const answer = await callEcho(serving.url, await issuer.token(serving.url, ["mcp"]));
  expect(answer).toEqual(KEYS_UNAVAILABLE);
});
