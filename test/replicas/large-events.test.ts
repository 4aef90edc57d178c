/**
 * A large event of a 2025 stream one replica holds, carried by the other
 * for a client that resumed it there, both sharing a real redis-server whose
 * pub/sub output buffer limit is lowered to 1 MB (`client-output-buffer-limit
 * pubsub`, 32 MB by default): what is published is a notice of the event,
 * which the carrying replica reads from Redis, so the event reaches its
 * client whole and no replica's subscription overflows (which Redis answers
 * by dropping it: an outage for that replica, and the event lost).
 */
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpTaskWire } from "../eras/helpers/task-wire.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import type { SseReader } from "../helpers/sse-reader.js";
import { type CliServer, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { resumedAfterProgress, STEADY_SERVER, startPair } from "./fixture.js";

const RESULT_CHARS = 3 * 1024 * 1024;

let redis: RedisServer;
let a: CliServer;
let b: CliServer;
/** Each message published on a session's channel, in bytes, as a subscriber receives it. */
const published: number[] = [];
let listener: ReturnType<typeof createClient> | undefined;

beforeAll(async () => {
  const [server, dir] = await Promise.all([
    startRedis(),
    createServerDir({
      ...STEADY_SERVER,
      "tools/large.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { gate } from "../lib/gates.js";
export default defineTool({
  description: "Reports progress, waits for its gate, then answers with ${RESULT_CHARS} characters",
  input: { key: z.string() },
  handler: async ({ key }, ctx) => {
    await ctx.progress(1, 2, "waiting for " + key);
    await gate(key).promise;
    return "x".repeat(${RESULT_CHARS});
  },
});`,
    }),
  ]);
  redis = server;
  await redis.command("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 512kb 60");
  listener = createClient({ url: redis.url });
  // Dropped with the replicas' subscriptions when a message overflows its buffer: it reconnects.
  listener.on("error", () => {});
  await listener.connect();
  await listener.pSubscribe("mcp-dir:replicated:session-events:*", (message) => {
    published.push(Buffer.byteLength(message));
  });
  [a, b] = await startPair(dir, redis.url);
});
afterAll(async () => {
  await listener?.close();
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

describe("a large event of a stream resumed on the other replica", () => {
  it("reaches the client whole, and only a notice of it is published", async () => {
    const { resumed } = await resumedAfterProgress(a, b, "large", "big");
    await httpTaskWire(a.url).request("tools/call", { name: "open", arguments: { key: "big" } });
    const outage = b.waitForStderr(/Redis at \S+ cannot be reached \([^)]*\)/);
    outage.catch(() => {});
    const carried = await Promise.race([resumed.next(), outage]);
    expect(Array.isArray(carried) ? `B lost Redis: ${carried[0]}` : undefined).toBeUndefined();
    const event = carried as Awaited<ReturnType<SseReader["next"]>>;
    // Seen once in CI, not reproduced since: what each replica said, should it come again.
    expect(
      event?.data,
      `the resumed stream ${event ? "carried an empty event" : "ended"} first; A said:\n${a.stderr()}\nB said:\n${b.stderr()}`,
    ).toBeTruthy();
    expect(JSON.parse(event?.data ?? "")).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { content: [{ type: "text", text: "x".repeat(RESULT_CHARS) }] },
    });
    expect(await resumed.next()).toBeUndefined();
    expect(b.stderr()).not.toContain("cannot be reached");
    expect(published.length).toBeGreaterThan(0);
    expect(Math.max(...published)).toBeLessThan(1024);
  });
});
