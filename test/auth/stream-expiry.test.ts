/**
 * A stream opened under an access token that expires ends once the token is
 * no longer accepted (its exp, plus clockToleranceSeconds), cleanly, so that
 * the client comes back through the gate: a 2025 session's GET stream, which
 * a fresh token resumes from Last-Event-ID without losing what was sent
 * meanwhile, and a 2026-07-28 listen stream, which ends with its result. Real
 * tokens from the issuer (oidc-provider) that live a few seconds, on the real
 * clock: each test awaits its stream's end.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { defineTool, type HttpServing, serveHttp } from "../../src/index.js";
import { postStateless } from "../helpers/stateless-post.js";
import { INITIALIZE, PROTOCOL_VERSION, post, postHeaders, SseReader } from "../http/helpers.js";
import { startIssuer, type TestIssuer } from "./helpers/issuer.js";
import { scopedServer } from "./helpers/scoped-server.js";
import { expiredRefusal, listenEnded, refusedFrom } from "./helpers/token-expiry.js";

const LIFETIME_SECONDS = 2;
const TOLERANCE_SECONDS = 1;
/** Far more than a token lives: a stream still open by then outlived its token. */
const ENDS_WITHIN_MS = 15_000;

let issuer: TestIssuer;
let server: ReturnType<typeof scopedServer>;
let serving: HttpServing;

beforeAll(async () => {
  issuer = await startIssuer({ tokenLifetimeSeconds: LIFETIME_SECONDS });
  server = scopedServer();
  serving = await serveHttp(server, {
    port: 0,
    auth: { issuer: issuer.url, clockToleranceSeconds: TOLERANCE_SECONDS },
  });
});
afterAll(async () => {
  await serving?.close();
  await issuer?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const freshToken = () => issuer.token(serving.url, ["mcp"]);
const addTool = (name: string) =>
  server.add(defineTool({ name, description: "Added by a test", handler: () => name }));
/** A registry change is told on the next turn of the event loop. */
const told = () => new Promise((resolve) => setImmediate(resolve));

async function openSession(token: string): Promise<string> {
  const opened = await post(serving.url, INITIALIZE, { ...postHeaders(), ...bearer(token) });
  await opened.text();
  const sessionId = opened.headers.get("mcp-session-id") ?? "";
  const notification = { jsonrpc: "2.0", method: "notifications/initialized" };
  await (
    await post(serving.url, notification, { ...postHeaders(sessionId), ...bearer(token) })
  ).text();
  return sessionId;
}

function getStream(sessionId: string, token: string, lastEventId?: string): Promise<Response> {
  const headers: Record<string, string> = {
    accept: "text/event-stream",
    "mcp-session-id": sessionId,
    "mcp-protocol-version": PROTOCOL_VERSION,
    ...bearer(token),
  };
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  return fetch(serving.url, { headers });
}

function listen(id: number, token: string): Promise<Response> {
  return postStateless(serving.url, {
    id,
    method: "subscriptions/listen",
    params: { notifications: { toolsListChanged: true } },
    headers: bearer(token),
  });
}

const TOOLS_CHANGED = { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} };

it("a 2025 session's GET stream ends when its token does; the old token is refused, a fresh one resumes it with what was sent meanwhile", {
  timeout: ENDS_WITHIN_MS,
}, async () => {
  const old = await freshToken();
  const sessionId = await openSession(old);
  const stream = new SseReader(await getStream(sessionId, old));
  expect(await stream.next()).toMatchObject({ data: "" });
  addTool("before-expiry");
  const before = await stream.nextMessage();
  expect(before?.message).toEqual(TOOLS_CHANGED);

  expect(await stream.next()).toBeUndefined();
  expect(Date.now()).toBeGreaterThanOrEqual(refusedFrom(old, TOLERANCE_SECONDS));
  addTool("after-expiry");
  await told();

  const refused = await getStream(sessionId, old, before?.id);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual(expiredRefusal(old));
  const resumed = new SseReader(await getStream(sessionId, await freshToken(), before?.id));
  expect((await resumed.nextMessage())?.message).toEqual(TOOLS_CHANGED);
  await resumed.cancel();
});

it("a 2026-07-28 listen stream ends with its result when its token does; listening again takes a fresh token", {
  timeout: ENDS_WITHIN_MS,
}, async () => {
  const old = await freshToken();
  const stream = new SseReader(await listen(7, old));
  expect((await stream.nextMessage())?.message).toMatchObject({
    method: "notifications/subscriptions/acknowledged",
  });
  addTool("heard");
  expect((await stream.nextMessage())?.message).toMatchObject({
    method: "notifications/tools/list_changed",
  });

  expect((await stream.nextMessage())?.message).toEqual(listenEnded(7));
  expect(await stream.next()).toBeUndefined();
  expect(Date.now()).toBeGreaterThanOrEqual(refusedFrom(old, TOLERANCE_SECONDS));

  const refused = await listen(8, old);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual(expiredRefusal(old));
  const again = new SseReader(await listen(9, await freshToken()));
  expect((await again.nextMessage())?.message).toMatchObject({
    method: "notifications/subscriptions/acknowledged",
  });
  addTool("heard-again");
  expect((await again.nextMessage())?.message).toMatchObject({
    method: "notifications/tools/list_changed",
  });
  await again.cancel();
});
