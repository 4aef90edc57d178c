import { afterEach, describe, expect, it } from "vitest";
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

/** Reads the raw body until `text` appears; resolves to everything read. */
async function readUntil(response: Response, text: string): Promise<string> {
  if (!response.body) throw new Error("the response has no body");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let read = "";
  while (!read.includes(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value;
  }
  await reader.cancel();
  return read;
}

describe("a 2026-07-28 listen stream over HTTP", () => {
  it("carries keep-alive comment lines while it is quiet, after its acknowledgement", async () => {
    running = await startFixture({ keepAliveMs: 20 });
    const response = await post(
      running.url,
      {
        jsonrpc: "2.0",
        id: "listen-1",
        method: "subscriptions/listen",
        params: { _meta: ENVELOPE, notifications: { toolsListChanged: true } },
      },
      {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "subscriptions/listen",
      },
    );
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
});
