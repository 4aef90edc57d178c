/**
 * The 2025 session log in a real redis-server, shared by two replicas in one
 * process: a stream of A's session that B carries ends when A stops, but not
 * on a lapsed lease B reads before it has been up a whole lease (after an
 * outage longer than the lease, every replica's has lapsed until it renews it).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisReplicas } from "../../../src/server/replicas/redis-replicas.js";
import type { FollowedStream } from "../../../src/server/replicas/session-log.js";
import { type RedisServer, startRedis, stopAllRedis } from "../../helpers/redis-server.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(stopAllRedis);

const started: RedisReplicas[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((replicas) => replicas.close()));
});

const KEEP = { maxEvents: 100, ttlMs: 60_000 };

async function replica(prefix: string, leaseMs = 60_000): Promise<RedisReplicas> {
  const replicas = new RedisReplicas({ url: redis.url, prefix, leaseMs }, 100, () => {});
  started.push(replicas);
  replicas.start();
  await replicas.ready();
  return replicas;
}

/** Follows stream 1 from its start, which A has written to (without waiting). */
async function followOnce(on: RedisReplicas, sessionId: string): Promise<FollowedStream> {
  const followed = await on.sessions.follow(sessionId, 1, 0);
  expect(followed?.known).toBe(true);
  return followed as FollowedStream;
}

/** Runs `then` with B's first read of Redis (FIND) once it is answered, before B sees the answer. */
function afterFirstRead(on: RedisReplicas, then: (reply: unknown) => void): () => boolean {
  const run = on.link.run.bind(on.link);
  let looked = false;
  on.link.run = async (...args) => {
    const reply = await run(...args);
    if (!looked) {
      looked = true;
      then(reply);
    }
    return reply;
  };
  return () => looked;
}

describe("a stream B carries for A's session", () => {
  it("is not ended by a lapsed lease B reads before it has been up a whole lease", async () => {
    const prefix = "test-fresh-orphans:";
    const [a, b] = await Promise.all([replica(prefix), replica(prefix)]);
    a.sessions.open("s", undefined, KEEP).append(1, 1, "first", "event");
    // As after an outage longer than the lease: A's has lapsed, and A's timer has not renewed it yet.
    await redis.command("DEL", `${prefix}replica:${a.id}`);
    const followed = await followOnce(b, "s");
    expect(followed.alive).toBe(true);
    expect(followed.over).toBe(false);
    let ended = false;
    followed.listen({ event: () => {}, end: () => (ended = true) });
    await b.sessions.endOrphans();
    expect(ended).toBe(false);
    followed.stop();
  });

  it("is ended by B's timer once A's lease lapses and B has been up a whole lease", async () => {
    const prefix = "test-stopped-owner:";
    // B's short lease: its timer beats every few milliseconds, and soon knows a lapse for a stop.
    const [a, b] = await Promise.all([replica(prefix), replica(prefix, 100)]);
    a.sessions.open("s", undefined, KEEP).append(1, 1, "first", "event");
    const followed = await followOnce(b, "s");
    const ended = new Promise<void>((resolve) => {
      followed.listen({ event: () => {}, end: resolve });
    });
    await redis.command("DEL", `${prefix}replica:${a.id}`);
    await ended;
  });

  it("carries every event A wrote before it ended the session, then ends", async () => {
    const prefix = "test-ended-after-events:";
    const [a, b] = await Promise.all([replica(prefix), replica(prefix)]);
    const mirror = a.sessions.open("s", undefined, KEEP);
    mirror.append(1, 1, "first", "event");
    const followed = await followOnce(b, "s");
    expect(followed.missed.map((event) => event.data)).toEqual(["first"]);
    const carried: string[] = [];
    const ended = new Promise<void>((resolve) => {
      followed.listen({ event: (event) => carried.push(event.data), end: resolve });
    });
    // As a session closed right after its last answer (its replica shutting down, say).
    mirror.append(1, 2, "second", "event");
    mirror.append(1, 3, "last", "last");
    mirror.ended();
    await ended;
    expect(carried).toEqual(["second", "last"]);
  });

  it("is found when the client resumes before A's write of the event it names reaches Redis", async () => {
    const prefix = "test-resume-before-write:";
    const [a, b] = await Promise.all([replica(prefix), replica(prefix)]);
    const mirror = a.sessions.open("s", undefined, KEEP);
    // The order that lost: A sends its first event to the client and writes it without waiting;
    // the client resumes on B, which looks for the session before the write lands.
    const looked = afterFirstRead(b, (reply) => {
      expect(reply).toBe(null);
      mirror.append(1, 1, "first", "event");
    });
    const followed = await b.sessions.follow("s", 1, 0);
    expect(looked()).toBe(true);
    expect(followed?.known).toBe(true);
    expect(followed?.missed.map((event) => event.data)).toEqual(["first"]);
    followed?.stop();
  });

  it("is found when its stream's first event has not reached Redis though earlier ones have", async () => {
    const prefix = "test-stream-before-write:";
    const [a, b] = await Promise.all([replica(prefix), replica(prefix)]);
    const mirror = a.sessions.open("s", undefined, KEEP);
    mirror.append(1, 1, "on the first stream", "event");
    (await followOnce(b, "s")).stop();
    // The client has stream 2's priming event (the session's second): B reads before it lands.
    const looked = afterFirstRead(b, () => {
      mirror.append(2, 2, "", "prime");
      mirror.append(2, 3, "second stream's first", "event");
    });
    const followed = await b.sessions.follow("s", 2, 2);
    expect(looked()).toBe(true);
    expect(followed?.known).toBe(true);
    expect(followed?.missed.map((event) => event.data)).toEqual(["second stream's first"]);
    followed?.stop();
  });

  it("is refused when the log has later events than the one named, but none of its stream", async () => {
    const prefix = "test-stream-gone:";
    const [a, b] = await Promise.all([replica(prefix), replica(prefix)]);
    a.sessions.open("s", undefined, KEEP).append(1, 4, "later, on stream 1", "event");
    (await followOnce(b, "s")).stop();
    const followed = await b.sessions.follow("s", 2, 3);
    expect(followed?.known).toBe(false);
    followed?.stop();
  });

  it("is refused as unknown, after waiting for a write, when no replica has the session", async () => {
    const b = await replica("test-resume-unknown:");
    expect(await b.sessions.follow("never", 1, 0)).toBeUndefined();
  });

  it("is read as of one moment: a session found is found with the events it had then", async () => {
    const prefix = "test-follow-at-once:";
    const [a, b] = await Promise.all([replica(prefix), replica(prefix)]);
    const mirror = a.sessions.open("s", undefined, KEEP);
    let appended = false;
    const appendFirst = async () => {
      appended = true;
      mirror.append(1, 1, "first", "event");
      while ((await redis.command("XLEN", `${prefix}events:s`)) === "0");
    };
    // The order that loses: B reads the session's events, A's first event (written without
    // waiting) lands, then B finds the session. Reads made apart are held to that order.
    let eventsRead: Promise<void> | undefined;
    const command = b.link.command.bind(b.link);
    b.link.command = async (what, args) => {
      if (args[0] !== "XRANGE" || args[2] !== "-") return command(what, args);
      let resolve = () => {};
      eventsRead = new Promise<void>((settle) => {
        resolve = settle;
      });
      const reply = await command(what, args);
      await appendFirst();
      resolve();
      return reply;
    };
    const run = b.link.run.bind(b.link);
    b.link.run = async (...args) => {
      await new Promise(setImmediate);
      await eventsRead;
      return run(...args);
    };
    const followed = await b.sessions.follow("s", 1, 0);
    // Not found yet (the client asks again), or found with the event that made it.
    if (followed) {
      expect(followed.known).toBe(true);
      expect(followed.missed.map((event) => event.data)).toEqual(["first"]);
      followed.stop();
    }
    if (!appended) await appendFirst();
    const again = await b.sessions.follow("s", 1, 0);
    expect(again?.missed.map((event) => event.data)).toEqual(["first"]);
    again?.stop();
  });
});
