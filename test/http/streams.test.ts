/**
 * Raw HTTP: how responses are framed (JSON or SSE), the standalone GET stream,
 * resumption with Last-Event-ID, and that sessions free what requests held.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool } from "../../src/index.js";
import {
  openSession,
  PROTOCOL_VERSION,
  post,
  postHeaders,
  type Running,
  rawRequest,
  SseReader,
  startFixture,
} from "./helpers.js";

const running: Running[] = [];

async function start(options: Parameters<typeof startFixture>[0] = {}): Promise<Running> {
  const started = await startFixture(options);
  running.push(started);
  return started;
}

afterEach(async () => {
  vi.useRealTimers();
  for (const r of running.splice(0)) await r.serving.close();
});

function call(
  id: number,
  name: string,
  args: Record<string, unknown> = {},
  progressToken?: string,
) {
  const params: Record<string, unknown> = { name, arguments: args };
  if (progressToken !== undefined) params._meta = { progressToken };
  return { jsonrpc: "2.0", id, method: "tools/call", params };
}

function result(id: number, text: string) {
  return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } };
}

function getStream(url: string, sessionId: string, lastEventId?: string): Promise<Response> {
  const headers: Record<string, string> = {
    accept: "text/event-stream",
    "mcp-session-id": sessionId,
    "mcp-protocol-version": PROTOCOL_VERSION,
  };
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  return fetch(url, { headers });
}

const tool = (name: string) =>
  defineTool({ name, description: "Added by a test", handler: () => name });

const TOOLS_CHANGED = { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} };

describe("how a request is answered", () => {
  it("answers with plain JSON when nothing is streamed", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const response = await post(url, call(1, "echo", { message: "hi" }), postHeaders(sessionId));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual(result(1, "hi"));
  });

  it("opens an SSE stream for progress: priming event, notifications, then the response", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const response = await post(url, call(5, "progress_steps", {}, "tok"), postHeaders(sessionId));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("mcp-session-id")).toBe(sessionId);
    const events = await new SseReader(response).rest();
    expect(events[0]).toMatchObject({ retry: 10, data: "" });
    expect(events.slice(1).map((e) => JSON.parse(e.data))).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "tok", progress: 1, total: 3, message: "one" },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "tok", progress: 2, total: 3, message: "two" },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "tok", progress: 3, total: 3, message: "three" },
      },
      result(5, "done"),
    ]);
    const ids = events.map((e) => e.id as string);
    const [stream] = (ids[0] as string).split(".");
    expect(ids.every((id) => id.startsWith(`${stream}.`))).toBe(true);
    const seqs = ids.map((id) => Number(id.split(".")[1]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it("decides per request: the same tool without a progress token answers JSON", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const response = await post(url, call(2, "progress_steps"), postHeaders(sessionId));
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual(result(2, "done"));
  });

  it("sends no priming event to a client older than 2025-11-25", async () => {
    const { url } = await start();
    const sessionId = await openSession(url, "2025-06-18");
    const headers = { ...postHeaders(sessionId), "mcp-protocol-version": "2025-06-18" };
    const response = await post(url, call(3, "log_steps"), headers);
    const events = await new SseReader(response).rest();
    expect(events.every((e) => e.data !== "" && e.retry === undefined && e.id)).toBe(true);
    expect(events.map((e) => JSON.parse(e.data).params?.data ?? JSON.parse(e.data).result)).toEqual(
      ["first", "second", { detail: "third" }, { content: [{ type: "text", text: "logged" }] }],
    );
  });
});

describe("the standalone GET stream", () => {
  it("primes, then carries list_changed", async () => {
    const { url, server } = await start();
    const sessionId = await openSession(url);
    const response = await getStream(url, sessionId);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = new SseReader(response);
    expect(await reader.next()).toMatchObject({ retry: 10, data: "" });
    server.add(tool("added"));
    expect((await reader.nextMessage())?.message).toEqual(TOOLS_CHANGED);
    await reader.cancel();
  });

  it("delivers what happened before the client opened it", async () => {
    const { url, server } = await start();
    const sessionId = await openSession(url);
    server.add(tool("early"));
    // The change notification goes out on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    const reader = new SseReader(await getStream(url, sessionId));
    expect((await reader.nextMessage())?.message).toEqual(TOOLS_CHANGED);
    await reader.cancel();
  });

  it("sends what waited before its priming event, so each id is past the ones before it", async () => {
    const { url, server } = await start();
    const sessionId = await openSession(url);
    server.add(tool("early"));
    await new Promise((resolve) => setImmediate(resolve));
    const reader = new SseReader(await getStream(url, sessionId));
    const waited = await reader.next();
    const priming = await reader.next();
    expect(JSON.parse(waited?.data ?? "")).toEqual(TOOLS_CHANGED);
    expect(priming).toMatchObject({ retry: 10, data: "" });
    const seq = (id: string | undefined) => Number(id?.split(".")[1]);
    expect(seq(priming?.id)).toBeGreaterThan(seq(waited?.id));
    // A client that drops now resumes from the priming event's id and misses nothing.
    await reader.cancel();
    server.add(tool("later"));
    await new Promise((resolve) => setImmediate(resolve));
    const resumed = new SseReader(await getStream(url, sessionId, priming?.id));
    expect((await resumed.nextMessage())?.message).toEqual(TOOLS_CHANGED);
    await resumed.cancel();
  });

  it("replays what followed Last-Event-ID after a drop", async () => {
    const { url, server } = await start();
    const sessionId = await openSession(url);
    const first = new SseReader(await getStream(url, sessionId));
    const priming = await first.next();
    await first.cancel();
    server.add(tool("while-away"));
    await new Promise((resolve) => setImmediate(resolve));
    const resumed = new SseReader(await getStream(url, sessionId, priming?.id));
    const replayed = await resumed.nextMessage();
    expect(replayed?.message).toEqual(TOOLS_CHANGED);
    expect(Number(replayed?.id?.split(".")[1])).toBeGreaterThan(Number(priming?.id?.split(".")[1]));
    await resumed.cancel();
  });

  it("hands the stream to a second GET and ends the first", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const first = new SseReader(await getStream(url, sessionId));
    await first.next();
    const second = new SseReader(await getStream(url, sessionId));
    await second.next();
    expect(await first.next()).toBeUndefined();
    await second.cancel();
  });

  it("ends when the server closes", async () => {
    const { url, serving } = await start();
    const sessionId = await openSession(url);
    const reader = new SseReader(await getStream(url, sessionId));
    await reader.next();
    await serving.close();
    expect(await reader.next()).toBeUndefined();
  });
});

describe("resuming a request's stream", () => {
  it("replays the rest of the stream and the response after a drop", async () => {
    const { url, gates, serving } = await start();
    const sessionId = await openSession(url);
    const response = await post(url, call(9, "gated", { key: "g" }, "p"), postHeaders(sessionId));
    const reader = new SseReader(response);
    await reader.next();
    const progress = await reader.nextMessage();
    expect(progress?.message).toMatchObject({ params: { progress: 1 } });
    await reader.cancel();
    gates.open("g", "later");
    const resumed = new SseReader(await getStream(url, sessionId, progress?.id));
    const rest = await resumed.rest();
    expect(rest.map((e) => JSON.parse(e.data))).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p", progress: 2, total: 2, message: "released" },
      },
      result(9, "released with later"),
    ]);
    expect(serving.stats()).toMatchObject({ requestsInFlight: 0, resumableStreams: 0 });
  });

  it("carries a stream on live when the client resumes before the response", async () => {
    const { url, gates } = await start();
    const sessionId = await openSession(url);
    const reader = new SseReader(
      await post(url, call(4, "gated", { key: "live" }, "p"), postHeaders(sessionId)),
    );
    const priming = await reader.next();
    await reader.cancel();
    const resumed = new SseReader(await getStream(url, sessionId, priming?.id));
    expect((await resumed.nextMessage())?.message).toMatchObject({ params: { progress: 1 } });
    gates.open("live");
    expect((await resumed.nextMessage())?.message).toMatchObject({ params: { progress: 2 } });
    expect((await resumed.nextMessage())?.message).toEqual(result(4, "released with open"));
    expect(await resumed.next()).toBeUndefined();
  });
});

describe("what requests leave behind", () => {
  it("cancels a request whose client left before any event reached it", async () => {
    const { url, gates, serving } = await start();
    const sessionId = await openSession(url);
    const abort = new AbortController();
    const request = fetch(url, {
      method: "POST",
      headers: postHeaders(sessionId),
      body: JSON.stringify(call(2, "hang", { key: "left" })),
      signal: abort.signal,
    });
    await gates.wait("left:started");
    abort.abort();
    await expect(request).rejects.toThrow();
    expect(await gates.wait("left")).toBe("aborted");
    expect(serving.stats().requestsInFlight).toBe(0);
  });

  it("answers requests still in flight when their session is deleted", async () => {
    const { url, gates } = await start();
    const sessionId = await openSession(url);
    const pending = post(url, call(3, "hang", { key: "del" }), postHeaders(sessionId));
    await gates.wait("del:started");
    const deleted = await rawRequest(url, {
      method: "DELETE",
      headers: { "mcp-session-id": sessionId },
    });
    expect(deleted.status).toBe(204);
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32000,
        message: "The session ended before this request completed; initialize a new session",
      },
    });
  });

  it("holds nothing once requests end, and keeps replay bounded", async () => {
    const { url, serving } = await start({ replay: { maxEvents: 8 } });
    const sessionId = await openSession(url);
    const headers = postHeaders(sessionId);
    const echoes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(url, call(i, "echo", { message: `m${i}` }), headers),
      ),
    );
    await Promise.all(echoes.map((r) => r.json()));
    expect(serving.stats()).toEqual({
      sessions: 1,
      requestsInFlight: 0,
      resumableStreams: 0,
      storedEvents: 0,
      storedEventBytes: 0,
      listenStreams: 0,
    });
    const streamed = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(url, call(1000 + i, "progress_steps", {}, `t${i}`), headers),
      ),
    );
    await Promise.all(streamed.map((r) => new SseReader(r).rest()));
    expect(serving.stats()).toEqual({
      sessions: 1,
      requestsInFlight: 0,
      resumableStreams: 0,
      storedEvents: 8,
      // Which eight of the twenty streams' events are newest depends on the order they ran in.
      storedEventBytes: expect.any(Number),
      listenStreams: 0,
    });
  });
});

describe("timers", () => {
  it("ends a session left idle, and keeps one with an open stream", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const { url, server } = await start({ sessionIdleTimeoutMs: 1000, keepAliveMs: 0 });
    const idle = await openSession(url);
    const listening = await openSession(url);
    const reader = new SseReader(await getStream(url, listening));
    await reader.next();
    expect(server.sessionCount).toBe(2);
    vi.advanceTimersByTime(1500);
    expect(server.sessionCount).toBe(1);
    const response = await rawRequest(url, {
      headers: postHeaders(idle),
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(response.status).toBe(404);
    await reader.cancel();
  });

  it("sends keep-alive comments on open streams", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const { url } = await start({ keepAliveMs: 1000 });
    const sessionId = await openSession(url);
    const response = await getStream(url, sessionId);
    const chunks = (response.body as ReadableStream<Uint8Array>)
      .pipeThrough(new TextDecoderStream())
      .getReader();
    const priming = await chunks.read();
    expect(priming.value).toMatch(/^id: \d+\.\d+\nretry: 10\ndata: \n\n$/);
    vi.advanceTimersByTime(1000);
    expect((await chunks.read()).value).toBe(": keep-alive\n\n");
    await chunks.cancel();
  });
});
