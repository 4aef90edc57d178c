/**
 * A stream held open for a caller that a `verifyToken` of the author's own
 * named ends at the `expiresAt` it returned, the moment the gate would ask
 * verifyToken again, and not clockToleranceSeconds later: that tolerance is
 * for JWTs and introspection answers, and verifyToken judges expiry itself.
 * A 2025 session's GET stream and a 2026-07-28 listen stream, on the real
 * clock, under a tolerance far longer than either test may run.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AuthInfo, type HttpServing, serveHttp } from "../../src/index.js";
import { postStateless } from "../helpers/stateless-post.js";
import { INITIALIZE, PROTOCOL_VERSION, post, postHeaders, SseReader } from "../http/helpers.js";
import { scopedServer } from "./helpers/scoped-server.js";
import { listenEnded } from "./helpers/token-expiry.js";

const LIFETIME_SECONDS = 2;
const TOLERANCE_SECONDS = 60;
/** Far less than the tolerance: a stream still open by then was given it. */
const ENDS_WITHIN_MS = 10_000;

let serving: HttpServing;

/** A token naming its own expiry (epoch seconds), accepted until then and refused from then on. */
function verifyToken(token: string): AuthInfo | undefined {
  const expiresAt = Number(token.replace(/^until-/, ""));
  if (!Number.isInteger(expiresAt) || Date.now() >= expiresAt * 1000) return undefined;
  return { subject: "ann", clientId: "cli", scopes: ["mcp"], expiresAt, claims: {} };
}

beforeAll(async () => {
  serving = await serveHttp(scopedServer(), {
    port: 0,
    authorizationServers: ["https://id.example.com"],
    auth: { verifyToken, clockToleranceSeconds: TOLERANCE_SECONDS },
  });
});
afterAll(async () => {
  await serving?.close();
});

/** A token that expires LIFETIME_SECONDS from now, and that expiry (epoch ms). */
function shortLived(): { token: string; expiresAtMs: number } {
  const expiresAt = Math.ceil(Date.now() / 1000) + LIFETIME_SECONDS;
  return { token: `until-${expiresAt}`, expiresAtMs: expiresAt * 1000 };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const REFUSED = {
  jsonrpc: "2.0",
  error: { code: -32000, message: "Unauthorized: the access token is not valid for this server" },
};

it("a 2025 session's GET stream ends at verifyToken's expiresAt, not clockToleranceSeconds later", {
  timeout: ENDS_WITHIN_MS + LIFETIME_SECONDS * 1000,
}, async () => {
  const { token, expiresAtMs } = shortLived();
  const opened = await post(serving.url, INITIALIZE, { ...postHeaders(), ...bearer(token) });
  await opened.text();
  const sessionId = opened.headers.get("mcp-session-id") ?? "";
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  await (
    await post(serving.url, initialized, { ...postHeaders(sessionId), ...bearer(token) })
  ).text();
  const stream = new SseReader(
    await fetch(serving.url, {
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": PROTOCOL_VERSION,
        ...bearer(token),
      },
    }),
  );
  expect(await stream.next()).toMatchObject({ data: "" });

  expect(await stream.next()).toBeUndefined();
  const endedAt = Date.now();
  expect(endedAt).toBeGreaterThanOrEqual(expiresAtMs);
  expect(endedAt).toBeLessThan(expiresAtMs + ENDS_WITHIN_MS);

  const refused = await post(serving.url, initialized, {
    ...postHeaders(sessionId),
    ...bearer(token),
  });
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual(REFUSED);
});

it("a 2026-07-28 listen stream ends with its result at verifyToken's expiresAt, not clockToleranceSeconds later", {
  timeout: ENDS_WITHIN_MS + LIFETIME_SECONDS * 1000,
}, async () => {
  const { token, expiresAtMs } = shortLived();
  const listen = (id: number) =>
    postStateless(serving.url, {
      id,
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true } },
      headers: bearer(token),
    });
  const stream = new SseReader(await listen(7));
  expect((await stream.nextMessage())?.message).toMatchObject({
    method: "notifications/subscriptions/acknowledged",
  });

  expect((await stream.nextMessage())?.message).toEqual(listenEnded(7));
  expect(await stream.next()).toBeUndefined();
  const endedAt = Date.now();
  expect(endedAt).toBeGreaterThanOrEqual(expiresAtMs);
  expect(endedAt).toBeLessThan(expiresAtMs + ENDS_WITHIN_MS);

  const refused = await listen(8);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual(REFUSED);
});
