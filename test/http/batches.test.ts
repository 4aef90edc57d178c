/**
 * 2025-03-26 batches over a session's POSTs, raw, with exact bodies: a batch
 * with no valid item is answered with the array of its errors (202 is for
 * notifications and responses only), and a batch whose requests are all
 * cancelled still closes, as a single cancelled request's POST does.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RawClient } from "../server/helpers/raw-client.js";
import { openSession, postHeaders, type Running, rawRequest, startFixture } from "./helpers.js";

const running: Running[] = [];
const raw: RawClient[] = [];

async function start(): Promise<Running> {
  const started = await startFixture();
  running.push(started);
  return started;
}

afterEach(async () => {
  for (const r of running.splice(0)) await r.serving.close();
  await Promise.all(raw.splice(0).map((client) => client.kill()));
});

const invalid = (message: string, id: number | null = null) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32600, message: `Invalid Request: ${message}` },
});
const NOT_AN_OBJECT = invalid("message must be a JSON object");
const NO_METHOD = invalid('missing "method" (or "result"/"error" for a response)');
const NO_VERSION = invalid('"jsonrpc" must be "2.0"');

/** Batches with no valid request, and the array each is answered with. */
const INVALID_ONLY: [string, unknown[], unknown[]][] = [
  ["numbers", [1, 2, 3], [NOT_AN_OBJECT, NOT_AN_OBJECT, NOT_AN_OBJECT]],
  ["objects that are no messages", [{ jsonrpc: "2.0" }, { foo: 1 }], [NO_METHOD, NO_VERSION]],
  [
    "an invalid request among notifications",
    [
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      { jsonrpc: "2.0", id: 7, method: 5 },
    ],
    [invalid('"method" must be a non-empty string', 7)],
  ],
];

describe("a 2025-03-26 batch with no valid request", () => {
  it.each(INVALID_ONLY)("of %s is answered with its errors over HTTP", async (_, batch, errors) => {
    const { url } = await start();
    const sessionId = await openSession(url, "2025-03-26");
    const response = await rawRequest(url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify(batch),
    });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(response.body)).toEqual(errors);
  });

  it.each(INVALID_ONLY)(
    "of %s is answered with its errors over stdio",
    async (_, batch, errors) => {
      const { client } = await RawClient.initializedInProcess("2025-03-26");
      raw.push(client);
      client.send(batch);
      expect(await client.messages.waitFor(Array.isArray, "the batch's answer")).toEqual(errors);
    },
  );

  it("is refused with 400 on 2025-11-25, which has no batches", async () => {
    const { url } = await start();
    const sessionId = await openSession(url, "2025-11-25");
    const response = await rawRequest(url, { headers: postHeaders(sessionId), body: "[1,2,3]" });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual(
      invalid(
        "batches are refused: protocol 2025-11-25 does not allow them (only 2025-03-26 does)",
      ),
    );
  });
});

describe("a 2025-03-26 batch whose requests are cancelled", () => {
  const hang = (id: number, key: string) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "hang", arguments: { key } },
  });
  const cancel = (requestId: number) => ({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId, reason: "no longer needed" },
  });
  const cancelled = (id: number) => ({
    jsonrpc: "2.0",
    id,
    error: { code: -32800, message: "Request cancelled by the client" },
  });

  /** POSTs two hanging calls as one batch; resolves once both handlers run. */
  async function twoHanging(running: Running, sessionId: string, keys: [string, string]) {
    const batch = rawRequest(running.url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify([hang(1, keys[0]), hang(2, keys[1])]),
    });
    await Promise.all(keys.map((key) => running.gates.wait(`${key}:started`)));
    return batch;
  }

  it("closes once each is cancelled, one POST at a time", async () => {
    const fixture = await start();
    const sessionId = await openSession(fixture.url, "2025-03-26");
    const batch = twoHanging(fixture, sessionId, ["a", "b"]);
    for (const requestId of [1, 2]) {
      const accepted = await rawRequest(fixture.url, {
        headers: postHeaders(sessionId),
        body: JSON.stringify(cancel(requestId)),
      });
      expect(accepted).toMatchObject({ status: 202, body: "" });
    }
    const answered = await batch;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toEqual([cancelled(1), cancelled(2)]);
  });

  it("closes once each is cancelled, in one batch of cancellations", async () => {
    const fixture = await start();
    const sessionId = await openSession(fixture.url, "2025-03-26");
    const batch = twoHanging(fixture, sessionId, ["c", "d"]);
    const accepted = await rawRequest(fixture.url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify([cancel(1), cancel(2)]),
    });
    expect(accepted).toMatchObject({ status: 202, body: "" });
    expect(JSON.parse((await batch).body)).toEqual([cancelled(1), cancelled(2)]);
  });

  it("answers the requests left when only some are cancelled", async () => {
    const fixture = await start();
    const sessionId = await openSession(fixture.url, "2025-03-26");
    const gated = { ...hang(2, "e"), params: { name: "gated", arguments: { key: "e" } } };
    const batch = rawRequest(fixture.url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify([hang(1, "f"), gated]),
    });
    await fixture.gates.wait("f:started");
    await rawRequest(fixture.url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify(cancel(1)),
    });
    fixture.gates.open("e");
    expect(JSON.parse((await batch).body)).toEqual([
      {
        jsonrpc: "2.0",
        id: 2,
        result: { content: [{ type: "text", text: "released with open" }] },
      },
    ]);
  });
});
