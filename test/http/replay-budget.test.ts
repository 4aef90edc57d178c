/**
 * Events kept for Last-Event-ID replay are bounded across every session of
 * an endpoint (`replay.maxTotalBytes`), not only per session: past it the
 * oldest events go first, whichever session they belong to, so a session
 * left idle gives way to one at work, and a stream keeps its newest events
 * (its response) longest.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineTool } from "../../src/index.js";
import {
  openSession,
  PROTOCOL_VERSION,
  post,
  postHeaders,
  type Running,
  type SseEvent,
  SseReader,
  startFixture,
} from "./helpers.js";

const TOTAL = 4000;

const shout = defineTool({
  name: "shout",
  description: "Logs three messages of a thousand characters",
  handler: (_args, ctx) => {
    for (const letter of ["a", "b", "c"]) ctx.log.info(letter.repeat(1000));
    return "shouted";
  },
});

let running: Running | undefined;
afterEach(async () => {
  await running?.serving.close();
  running = undefined;
});

/** Calls shout in the session: its stream's events as received, the priming one first. */
async function shoutIn(url: string, sessionId: string): Promise<SseEvent[]> {
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "shout" } };
  return new SseReader(await post(url, call, postHeaders(sessionId))).rest();
}

/** What a GET with Last-Event-ID replays of a finished stream. */
async function replayed(url: string, sessionId: string, lastEventId: string): Promise<string[]> {
  const response = await fetch(url, {
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": PROTOCOL_VERSION,
      "last-event-id": lastEventId,
    },
  });
  return (await new SseReader(response).rest()).map((event) => event.data);
}

describe("replay across sessions", () => {
  it("keeps the events of all sessions within maxTotalBytes, dropping the oldest first", async () => {
    running = await startFixture({ replay: { maxTotalBytes: TOTAL } });
    const { url, serving, server } = running;
    server.add(shout);
    const idle = await openSession(url);
    const busy = await openSession(url);

    const [idlePriming, ...idleEvents] = await shoutIn(url, idle);
    // One stream of about 3.3 KB fits on its own.
    expect(serving.stats().storedEvents).toBe(4);
    const [busyPriming, ...busyEvents] = await shoutIn(url, busy);

    // The busy session's three logs pushed out the idle one's three, its response stays.
    const idleResponse = idleEvents.at(-1)?.data as string;
    expect(await replayed(url, idle, idlePriming?.id as string)).toEqual([idleResponse]);
    const busyData = busyEvents.map((event) => event.data);
    expect(await replayed(url, busy, busyPriming?.id as string)).toEqual(busyData);
    const kept = [idleResponse, ...busyData].reduce((sum, data) => sum + data.length, 0);
    expect(kept).toBeLessThanOrEqual(TOTAL);
    expect(serving.stats()).toMatchObject({ storedEvents: 5, storedEventBytes: kept });
  });

  it("refuses a maxTotalBytes that is not a positive number", async () => {
    await expect(startFixture({ replay: { maxTotalBytes: 0 } })).rejects.toThrow(
      new TypeError("replay.maxTotalBytes must be greater than 0, got 0"),
    );
  });
});
