/**
 * A 2025 session's GET stream resumed on the replica that does not hold the
 * session (served from the log replicas share in a real redis-server) ends
 * when the token it was opened under stops being accepted (its exp, plus
 * clockToleranceSeconds), as the same stream on the session's own replica
 * does: the old token is refused, a fresh one resumes it with what was sent
 * meanwhile. Real tokens from the issuer (oidc-provider) that live a few
 * seconds, on the real clock: the test awaits the stream's end.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startIssuer, type TestIssuer } from "../auth/helpers/issuer.js";
import { expiredRefusal, refusedFrom } from "../auth/helpers/token-expiry.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { SseReader } from "../helpers/sse-reader.js";
import {
  type CliServer,
  openGetStream,
  openSession,
  post,
  postHeaders,
  stopAll,
} from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { REPLICATED_SERVER, startPair } from "./fixture.js";

const LIFETIME_SECONDS = 3;
const TOLERANCE_SECONDS = 1;
/** Far more than a token lives: a stream still open by then outlived its token. */
const ENDS_WITHIN_MS = 20_000;
/** Both replicas are this resource, so one token is good on either. */
const AUDIENCE = "https://mcp.example.com/mcp";

let issuer: TestIssuer;
let redis: RedisServer;
let a: CliServer;
let b: CliServer;

beforeAll(async () => {
  issuer = await startIssuer({ tokenLifetimeSeconds: LIFETIME_SECONDS });
  const config = {
    name: "replicated",
    version: "1.0.0",
    redis: { leaseMs: 1500 },
    http: {
      auth: { issuer: issuer.url, audience: AUDIENCE, clockToleranceSeconds: TOLERANCE_SECONDS },
    },
  };
  const [server, dir] = await Promise.all([
    startRedis(),
    createServerDir({ ...REPLICATED_SERVER, "mcp-dir.config.json": JSON.stringify(config) }),
  ]);
  redis = server;
  [a, b] = await startPair(dir, redis.url);
}, 30_000);
afterAll(async () => {
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
  await issuer?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const freshToken = () => issuer.token(AUDIENCE, ["mcp"]);

/** The session's `touch` on A: memo://board changed, told on the session's GET stream. */
async function touch(sessionId: string, token: string): Promise<void> {
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "touch" } };
  const response = await post(a.url, call, postHeaders(sessionId, bearer(token)));
  expect(response.status).toBe(200);
  await response.text();
}

const BOARD_UPDATED = {
  jsonrpc: "2.0",
  method: "notifications/resources/updated",
  params: { uri: "memo://board" },
};

it("a GET stream resumed on the replica that does not hold the session ends when its token does; a fresh token resumes it there with what was sent meanwhile", {
  timeout: ENDS_WITHIN_MS,
}, async () => {
  const old = await freshToken();
  const sessionId = await openSession(a.url, { headers: bearer(old) });
  const subscribe = {
    jsonrpc: "2.0",
    id: 1,
    method: "resources/subscribe",
    params: { uri: "memo://board" },
  };
  await (await post(a.url, subscribe, postHeaders(sessionId, bearer(old)))).text();
  // The GET stream opens on A, and drops after its priming event.
  const onA = new SseReader(await openGetStream(a.url, sessionId, bearer(old)));
  const primed = await onA.next();
  await onA.cancel();

  const resume = (token: string, lastEventId: string) =>
    openGetStream(b.url, sessionId, { ...bearer(token), "last-event-id": lastEventId });
  const onB = new SseReader(await resume(old, primed?.id ?? ""));
  await touch(sessionId, old);
  const before = await onB.nextMessage();
  expect(before?.message).toEqual(BOARD_UPDATED);

  expect(await onB.next()).toBeUndefined();
  expect(Date.now()).toBeGreaterThanOrEqual(refusedFrom(old, TOLERANCE_SECONDS));
  const fresh = await freshToken();
  await touch(sessionId, fresh);

  const refused = await resume(old, before?.id ?? "");
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual(expiredRefusal(old));
  const resumed = new SseReader(await resume(fresh, before?.id ?? ""));
  expect((await resumed.nextMessage())?.message).toEqual(BOARD_UPDATED);
  await resumed.cancel();
});
