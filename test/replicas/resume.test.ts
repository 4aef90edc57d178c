/**
 * 2025 resumability across replicas sharing a real redis-server: a session
 * opened on one replica, whose stream drops, is resumed with Last-Event-ID on
 * the other, which replays what the client missed from Redis and carries the
 * rest of the stream as the first replica sends it. Only resumption crosses:
 * the session's other requests belong to the replica that holds it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpTaskWire } from "../eras/helpers/task-wire.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { SseReader } from "../helpers/sse-reader.js";
import {
  type CliServer,
  deferred,
  openGetStream,
  openSession,
  post,
  postHeaders,
  stopAll,
} from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { REPLICATED_SERVER, resumedAfterProgress, startPair } from "./fixture.js";

let redis: RedisServer;
let a: CliServer;
let b: CliServer;
const clients: Client[] = [];

beforeAll(async () => {
  const [server, dir] = await Promise.all([startRedis(), createServerDir(REPLICATED_SERVER)]);
  redis = server;
  [a, b] = await startPair(dir, redis.url);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

/** A response whose SSE body breaks off, as a dropped connection does, once an event carried `marker`. */
function cutAfter(response: Response, marker: string, cut: (text: string) => void): Response {
  const upstream = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await upstream.read();
      if (done) return controller.close();
      controller.enqueue(value);
      text += decoder.decode(value, { stream: true });
      const at = text.indexOf(marker);
      if (at !== -1 && text.indexOf("\n\n", at) !== -1) {
        await upstream.cancel();
        controller.error(new Error("the connection dropped"));
        cut(text);
      }
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

const ERROR = (code: number, message: string) => ({ jsonrpc: "2.0", error: { code, message } });

const UNKNOWN_SESSION =
  "Session not found: it ended or never existed; send initialize again without an Mcp-Session-Id";

describe("a 2025 stream of a session one replica holds", () => {
  it("is resumed on the other, which replays what the client missed from Redis", async () => {
    const cutText = deferred<string>();
    const resumption = deferred<void>();
    const resumedWith: string[] = [];
    // A load balancer that sends the session to A, and the reconnection after the drop to B.
    const balancer: typeof fetch = async (input, init) => {
      const lastEventId = new Headers(init?.headers).get("last-event-id");
      if (init?.method === "GET" && lastEventId !== null) {
        resumedWith.push(lastEventId);
        await resumption.promise;
        return fetch(b.url, init);
      }
      const response = await fetch(input, init);
      const calls = typeof init?.body === "string" && init.body.includes('"tools/call"');
      const streams = response.headers.get("content-type")?.includes("text/event-stream");
      return calls && streams
        ? cutAfter(response, "notifications/progress", cutText.resolve)
        : response;
    };
    const client = new Client({ name: "resuming", version: "1.0.0" });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(a.url), { fetch: balancer });
    await client.connect(transport);
    const progress: string[] = [];
    const called = client.callTool({ name: "stream", arguments: { key: "r" } }, undefined, {
      onprogress: ({ message }) => progress.push(message ?? ""),
    });

    // The drop comes after the first progress; the tool then answers while the client is away.
    const [, lastEventId = ""] = /id: (\S+)\n[^\n]*\n?data: \{[^\n]*notifications\/progress/.exec(
      await cutText.promise,
    ) ?? [undefined, ""];
    await httpTaskWire(a.url).request("tools/call", {
      name: "open",
      arguments: { key: "r", value: "while away" },
    });
    // B serves the response from Redis to anyone resuming after that event (here, a raw client first).
    const sessionId = transport.sessionId as string;
    const raw = new SseReader(
      await openGetStream(b.url, sessionId, { "last-event-id": lastEventId }),
    );
    const missed = await raw.rest();
    expect(missed.map((event) => JSON.parse(event.data).result?.content)).toEqual([
      [{ type: "text", text: "streamed while away" }],
    ]);

    resumption.resolve();
    expect(await called).toMatchObject({
      content: [{ type: "text", text: "streamed while away" }],
    });
    expect(resumedWith).toEqual([lastEventId]);
    expect(progress).toEqual(["waiting for r"]);
  });

  it("goes on as the holding replica sends it, when the client resumes before the answer", async () => {
    const { primed, resumed } = await resumedAfterProgress(a, b, "stream", "live");
    expect(primed?.id).toBeDefined();
    // The GET is carried by B before the answer exists: A's answer reaches it through Redis.
    await httpTaskWire(a.url).request("tools/call", {
      name: "open",
      arguments: { key: "live", value: "now" },
    });
    const events = await resumed.rest();
    expect(events.map((event) => JSON.parse(event.data))).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        result: { content: [{ type: "text", text: "streamed now" }] },
      },
    ]);
  });

  it("is refused on the other, with the error each case has, when there is nothing to resume", async () => {
    const sessionId = await openSession(a.url);
    const unknown = await openGetStream(b.url, "no-such-session", { "last-event-id": "1.1" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(ERROR(-32001, UNKNOWN_SESSION));
    // A session that has streamed nothing is known to no replica but its own.
    const silent = await openGetStream(b.url, sessionId, { "last-event-id": "0.1" });
    expect(silent.status).toBe(404);
    expect(await silent.json()).toEqual(ERROR(-32001, UNKNOWN_SESSION));
    // Its GET stream has begun (a priming event): B knows the session, not a stream 9.
    const standalone = new SseReader(await openGetStream(a.url, sessionId));
    expect((await standalone.next())?.id).toBeDefined();
    const unknownStream = await openGetStream(b.url, sessionId, { "last-event-id": "9.1" });
    expect(unknownStream.status).toBe(400);
    expect(await unknownStream.json()).toEqual(
      ERROR(
        -32000,
        'Bad Request: nothing to resume after Last-Event-ID "9.1": the stream is unknown or its events are gone; open the stream again without Last-Event-ID',
      ),
    );
    // Any other request of the session belongs to the replica that holds it.
    const elsewhere = await post(
      b.url,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      postHeaders(sessionId),
    );
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual(ERROR(-32001, UNKNOWN_SESSION));
  });
});
