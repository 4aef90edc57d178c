/**
 * One memory budget over HTTP for every client of both eras: what a 2025
 * session subscribes to and what a 2026-07-28 listen stream keeps count
 * against the same `memoryBudgetBytes`, and a listen stream gives its part
 * back the moment its connection closes.
 */
import { Client as ClientV2, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectClient, type Running, startFixture } from "./helpers.js";

const BUDGET = 40_000;

/** A memo URI of 8192 characters, the longest accepted, told apart by `n`. */
function memoUri(n: number): string {
  const start = `memo://${n}`;
  return start + "x".repeat(8192 - start.length);
}

let running: Running | undefined;
afterEach(async () => {
  await running?.serving.close();
  running = undefined;
});

describe("the memory budget over HTTP", () => {
  it("is shared by 2025 subscriptions and 2026 listen streams, and given back when they end", async () => {
    running = await startFixture({}, { memoryBudgetBytes: BUDGET });
    const { url, serving, server } = running;
    const legacy = await connectClient(url);
    await legacy.client.subscribeResource({ uri: memoUri(0) });
    await legacy.client.subscribeResource({ uri: memoUri(1) });

    const modern = new ClientV2({ name: "budget-test", version: "1.0.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    } as ConstructorParameters<typeof ClientV2>[1]);
    await modern.connect(new StreamableHTTPClientTransport(new URL(url)));
    const stream = await modern.listen({ resourceSubscriptions: [memoUri(2), memoUri(3)] });

    // Two subscriptions and a stream of two: room for no fifth URI, whoever asks.
    await expect(legacy.client.subscribeResource({ uri: memoUri(4) })).rejects.toMatchObject({
      code: -32000,
      message: `MCP error -32000: resources/subscribe: the server's memory budget has no room for this: what all its clients keep between requests (subscriptions, listen streams, sessions) may take ${BUDGET} bytes (memoryBudgetBytes); unsubscribe from a resource, close a listen stream or end a session no longer needed and try again, or raise memoryBudgetBytes in mcp-dir.config.ts or createServer`,
    });

    await stream.close();
    // The stream's connection closing is what the server acts on: its count drops as it gives back.
    await vi.waitFor(() => expect(serving.stats().listenStreams).toBe(0));
    expect(await legacy.client.subscribeResource({ uri: memoUri(4) })).toEqual({});

    await legacy.transport.terminateSession();
    await legacy.client.close();
    await modern.close();
    expect(server.memory.used).toBe(0);
  });
});
