import { afterEach, describe, expect, it, vi } from "vitest";
import { post, type Running, startFixture } from "./helpers.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

let running: Running | undefined;
afterEach(async () => {
  await running?.serving.close();
  running = undefined;
});

const LISTEN_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "subscriptions/listen",
};

function listen(url: string, id: string): Promise<Response> {
  return post(
    url,
    {
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { _meta: ENVELOPE, notifications: { toolsListChanged: true } },
    },
    LISTEN_HEADERS,
  );
}

/** Reads the raw body until `text` appears, and keeps reading it open. */
async function readOpen(
  response: Response,
  text: string,
): Promise<{ read: string; reader: ReadableStreamDefaultReader<string> }> {
  if (!response.body) throw new Error("the response has no body");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let read = "";
  while (!read.includes(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value;
  }
  return { read, reader };
}

/** Reads the raw body until `text` appears, then closes it; resolves to everything read. */
async function readUntil(response: Response, text: string): Promise<string> {
  const { read, reader } = await readOpen(response, text);
  await reader.cancel();
  return read;
}

/** Reads a listen stream until its acknowledgement; the stream stays open. */
async function opened(response: Response): Promise<ReadableStreamDefaultReader<string>> {
  return (await readOpen(response, "acknowledged")).reader;
}

describe("a 2026-07-28 listen stream over HTTP", () => {
  it("carries keep-alive comment lines while it is quiet, after its acknowledgement", async () => {
    running = await startFixture({ keepAliveMs: 20 });
    const response = await listen(running.url, "listen-1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const read = await readUntil(response, ": keep-alive\n\n");
    const [ack, rest] = read.split("\n\n", 2);
    expect(JSON.parse(ack?.replace(/^data: /, "") ?? "")).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" },
        notifications: { toolsListChanged: true },
      },
    });
    expect(rest).toBe(": keep-alive");
  });

  it("is one of at most maxSessions open at once: one more gets 503, a closed one makes room", async () => {
    running = await startFixture({ maxSessions: 2 });
    const { url, serving } = running;
    const open = [await opened(await listen(url, "a")), await opened(await listen(url, "b"))];
    expect(serving.stats().listenStreams).toBe(2);
    const third = await listen(url, "c");
    expect(third.status).toBe(503);
    expect(await third.json()).toEqual({
      jsonrpc: "2.0",
      id: "c",
      error: {
        code: -32000,
        message:
          "Service Unavailable: the server already holds its limit of 2 listen streams; close one or try again later, or raise maxSessions (--max-sessions)",
      },
    });
    await open[0]?.cancel();
    await vi.waitFor(() => expect(serving.stats().listenStreams).toBe(1));
    const fourth = await listen(url, "d");
    expect(fourth.status).toBe(200);
    expect(await readUntil(fourth, "acknowledged")).toContain(
      '"io.modelcontextprotocol/subscriptionId":"d"',
    );
    await open[1]?.cancel();
  });
});
