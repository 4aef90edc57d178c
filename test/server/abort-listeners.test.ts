/**
 * Signals many requests share collect no abort listeners: a transport's
 * `closing`, and one request's signal while its handler asks the client
 * several things at once (the server's own shutdown is no signal they wait
 * on: see Closing). Without
 * this, stderr showed `MaxListenersExceededWarning: Possible EventTarget
 * memory leak detected. 11 abort listeners added to [AbortSignal]` under load,
 * and every listen stream that ended left its listeners behind.
 */
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createServer,
  defineResource,
  defineTool,
  type JsonRpcNotification,
  type JsonRpcResponse,
} from "../../src/index.js";
import { connectClient, post, type Running, startFixture } from "../http/helpers.js";
import { Inbox } from "./helpers/inbox.js";

const STREAMS = 20;
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function listenRequest(id: string) {
  return {
    jsonrpc: "2.0" as const,
    id,
    method: "subscriptions/listen",
    params: { _meta: ENVELOPE, notifications: { toolsListChanged: true } },
  };
}

/** Every process warning while a test runs: none may be a MaxListenersExceededWarning. */
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
beforeEach(() => {
  warnings.length = 0;
  process.on("warning", onWarning);
});
let running: Running | undefined;
afterEach(async () => {
  process.off("warning", onWarning);
  await running?.serving.close();
  running = undefined;
});

/** Lets process.emitWarning, which emits on the next tick, report what it would. */
const warningsEmitted = () => new Promise((resolve) => setImmediate(resolve));

describe("abort listeners on shared signals", () => {
  it("stay one per signal however many listen streams open, and none is left behind", async () => {
    const server = createServer({ name: "listeners", version: "1.0.0" });
    server.add(defineTool({ name: "t", description: "A tool", handler: () => "ok" }));
    const closing = new AbortController();
    const acknowledged = new Inbox<string>();
    const streams = Array.from({ length: STREAMS }, (_, i) => {
      const cancel = new AbortController();
      const response = server.serveRequest(listenRequest(`listen-${i}`), {
        notify: (message: JsonRpcNotification) => {
          if (message.method === "notifications/subscriptions/acknowledged") {
            acknowledged.push(`listen-${i}`);
          }
        },
        signal: cancel.signal,
        closing: closing.signal,
      });
      return { cancel, response };
    });
    await acknowledged.waitForCount(() => true, STREAMS, "every acknowledgement");
    // They wait on the server's close callbacks, never on an AbortSignal of its own.
    expect(getEventListeners(server.closing, "abort")).toHaveLength(0);
    expect(getEventListeners(closing.signal, "abort")).toHaveLength(1);

    for (const stream of streams) stream.cancel.abort();
    const responses: (JsonRpcResponse | undefined)[] = await Promise.all(
      streams.map((stream) => stream.response),
    );
    expect(responses.every((response) => response === undefined)).toBe(true);
    for (const { cancel } of streams) {
      expect(getEventListeners(cancel.signal, "abort")).toHaveLength(0);
    }
    await warningsEmitted();
    expect(warnings).toEqual([]);
  });

  it("over HTTP, 20 listen streams open at once and closed raise no warning", async () => {
    running = await startFixture();
    const { url } = running;
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "subscriptions/listen",
    };
    const readers = await Promise.all(
      Array.from({ length: STREAMS }, async (_, i) => {
        const response = await post(url, listenRequest(`http-${i}`), headers);
        if (!response.body) throw new Error("a listen stream has no body");
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let read = "";
        while (!read.includes("acknowledged")) read += (await reader.read()).value ?? "";
        return reader;
      }),
    );
    await warningsEmitted();
    expect(warnings).toEqual([]);
    await Promise.all(readers.map((reader) => reader.cancel()));
  });

  it("stay one on a request's signal while its handler asks the client 12 things at once", async () => {
    running = await startFixture();
    running.server.add(
      defineTool({
        name: "many_roots",
        description: "Asks for the roots twelve times at once",
        handler: async (_args, ctx) => {
          const answers = await Promise.all(Array.from({ length: 12 }, () => ctx.roots()));
          return String(answers.length);
        },
      }),
      defineResource({ name: "unused", uri: "memo://unused", read: () => "unused" }),
    );
    const { client } = await connectClient(running.url);
    const { ListRootsRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
    const result = await client.callTool({ name: "many_roots", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "12" }]);
    await client.close();
    await warningsEmitted();
    expect(warnings).toEqual([]);
  });
});
