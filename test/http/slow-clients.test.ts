/**
 * What serveHttp allows a client that is slow to send, or one connection too
 * many: each limit set small, and each cut observed as the 408 and the closed
 * socket, never timed. Event streams answer requests already received, so no
 * limit on receiving cuts them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, serveHttp } from "../../src/index.js";
import { resolveListenerLimits } from "../../src/settings/listener-limits.js";
import { nodeServerOptions } from "../../src/transports/http/listener-limits.js";
import { createFixture } from "./fixtures/server.js";
import {
  openSession,
  PROTOCOL_VERSION,
  post,
  postHeaders,
  type Running,
  SseReader,
  startFixture,
} from "./helpers.js";
import { openSocket, type RawSocket, requestHead } from "./raw-socket.js";

const running: Running[] = [];
const sockets: RawSocket[] = [];

async function start(options: Parameters<typeof startFixture>[0]): Promise<Running> {
  const started = await startFixture(options);
  running.push(started);
  return started;
}

async function connect(url: string): Promise<RawSocket> {
  const raw = await openSocket(url);
  sockets.push(raw);
  return raw;
}

afterEach(async () => {
  for (const raw of sockets.splice(0)) raw.socket.destroy();
  for (const r of running.splice(0)) await r.serving.close();
});

const TIMED_OUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";

function hostOf(url: string): string {
  return new URL(url).host;
}

/** Headers of a POST to /mcp whose chunked body the test writes itself. */
function chunkedPost(url: string): string {
  return requestHead("POST", "/mcp", [
    ["host", hostOf(url)],
    ["content-type", "application/json"],
    ["accept", "application/json, text/event-stream"],
    ["transfer-encoding", "chunked"],
  ]);
}

/** A connection whose body never ends: cut at requestTimeoutMs, it shows that limit has passed. */
async function bodyThatNeverEnds(url: string): Promise<RawSocket> {
  const raw = await connect(url);
  raw.socket.write(`${chunkedPost(url)}5\r\n{"jso\r\n`);
  return raw;
}

function health(url: string): string {
  return requestHead("GET", "/health", [["host", hostOf(url)]]);
}

describe("a client slow to send", () => {
  it("is cut with 408 when its headers take longer than headersTimeoutMs", async () => {
    const { url } = await start({ headersTimeoutMs: 100, requestTimeoutMs: 60_000 });
    const partial = await connect(url);
    partial.socket.write(`POST /mcp HTTP/1.1\r\nhost: ${hostOf(url)}\r\ncontent-type: appl`);
    const silent = await connect(url);
    expect(await partial.closed).toBe(TIMED_OUT);
    expect(await silent.closed).toBe(TIMED_OUT);
  });

  it("is cut with 408 when its body takes longer than requestTimeoutMs, and the server serves on", async () => {
    const { url } = await start({ headersTimeoutMs: 50, requestTimeoutMs: 100 });
    const endless = await bodyThatNeverEnds(url);
    expect(await endless.closed).toBe(TIMED_OUT);
    const after = await connect(url);
    after.socket.write(health(url));
    expect(await after.receive('{"status":"ok"}')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  it("refuses limits that contradict each other or are not whole numbers of ms", async () => {
    const { server } = createFixture();
    await expect(
      serveHttp(server, { port: 0, headersTimeoutMs: 2000, requestTimeoutMs: 1000 }),
    ).rejects.toThrow(
      "headersTimeoutMs (2000) must not exceed requestTimeoutMs (1000): the request's time includes its headers",
    );
    await expect(serveHttp(server, { port: 0, requestTimeoutMs: -1 })).rejects.toThrow(
      "requestTimeoutMs must be a whole number of 0 (no limit) or more, got -1",
    );
    await expect(serveHttp(server, { port: 0, maxConnections: 2.5 })).rejects.toThrow(
      "maxConnections must be a whole number of 0 (no limit) or more, got 2.5",
    );
  });
});

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const TOOLS_CHANGED = { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} };

describe("event streams", () => {
  it("stay open past requestTimeoutMs: a GET stream, a 2026 listen stream, a POST answer", async () => {
    const { url, server, gates } = await start({ headersTimeoutMs: 50, requestTimeoutMs: 100 });
    const sessionId = await openSession(url);
    const get = new SseReader(
      await fetch(url, {
        headers: {
          accept: "text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": PROTOCOL_VERSION,
        },
      }),
    );
    const listen = new SseReader(
      await post(
        url,
        {
          jsonrpc: "2.0",
          id: "listen",
          method: "subscriptions/listen",
          params: { _meta: ENVELOPE, notifications: { toolsListChanged: true } },
        },
        {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "subscriptions/listen",
        },
      ),
    );
    expect((await listen.nextMessage())?.message).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
    });
    const call = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "gated", arguments: { key: "late" }, _meta: { progressToken: "p" } },
    };
    const answer = new SseReader(await post(url, call, postHeaders(sessionId)));
    expect((await answer.nextMessage())?.message).toMatchObject({
      params: { message: "waiting" },
    });

    // Opened after the streams, cut once requestTimeoutMs has passed: every stream is older.
    expect(await (await bodyThatNeverEnds(url)).closed).toBe(TIMED_OUT);

    server.add(defineTool({ name: "late", description: "Added late", handler: () => "late" }));
    expect((await get.nextMessage())?.message).toEqual(TOOLS_CHANGED);
    expect((await listen.nextMessage())?.message).toMatchObject({
      method: "notifications/tools/list_changed",
    });
    gates.open("late");
    expect((await answer.nextMessage())?.message).toMatchObject({
      params: { message: "released" },
    });
    expect((await answer.nextMessage())?.message).toMatchObject({
      id: 2,
      result: { content: [{ type: "text", text: "released with open" }] },
    });
    await Promise.all([get.cancel(), listen.cancel()]);
  });
});

describe("the connection cap", () => {
  it("closes a connection past maxConnections unanswered, while those it holds are served", async () => {
    const { url, warnings } = await start({ maxConnections: 2 });
    const first = await connect(url);
    const second = await connect(url);
    for (const held of [first, second]) {
      held.socket.write(health(url));
      expect(await held.receive('{"status":"ok"}')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    }
    const third = await connect(url);
    third.socket.write(health(url));
    expect(await third.closed).toBe("");
    first.socket.write(health(url));
    expect(await first.receive('{"status":"ok"}')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(warnings).toEqual([
      "refused a connection: the server already holds its limit of 2 (maxConnections); each was closed unanswered. Raise http.maxConnections if this is expected load",
    ]);
  });
});

describe("the defaults", () => {
  it("give headers 10 s, a request 30 s, and connections room for every stream the session limit admits", () => {
    expect(resolveListenerLimits({})).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      maxConnections: 3000,
    });
    expect(resolveListenerLimits({ maxSessions: 50 }).maxConnections).toBe(1100);
    expect(nodeServerOptions(resolveListenerLimits({}))).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      connectionsCheckingInterval: 1000,
    });
  });
});
