import { thrownMessage } from "../../define/thrown.js";
import type { RedisKeys } from "./redis-keys.js";
import { type RedisLink, type Reply, script } from "./redis-link.js";
import type {
  EventRetention,
  FollowedStream,
  LoggedEvent,
  SessionLog,
  SessionMirror,
  StreamEventKind,
} from "./session-log.js";

const KIND_CODE: Record<StreamEventKind, string> = { event: "e", last: "l", prime: "p" };
const ENDED = "end";

/**
 * KEYS: the session, its events. ARGV: owner, replica, stream, seq, kind,
 * data, maxEvents, ttlMs, channel. An event is told on the channel by a
 * notice, "<stream> <seq>", as a task's change is (see RedisTaskStore): its
 * data, megabytes maybe, is read from the events by the replica that
 * carries the stream, not pushed to every subscriber.
 */
const APPEND = script(`
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'replica', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[7], ARGV[4] .. '-0', 's', ARGV[3], 'k', ARGV[5], 'd', ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[8])
redis.call('PUBLISH', ARGV[9], ARGV[3] .. ' ' .. ARGV[4])
return 1
`);

/**
 * How long a session's events outlive its end: a replica carrying one of its
 * streams reads each event when told of it, and may be told of the last ones
 * just before it hears of the end (by then, once, they were gone).
 */
const ENDED_EVENTS_KEPT_MS = 30_000;

/**
 * How long a resume of a session or stream the log lacks waits for the write
 * of the event it names, before it is refused as unknown.
 */
const BEHIND_WRITE_MS = 1_000;

/**
 * KEYS: the session, its events. ARGV: channel. The session is gone at once
 * (nothing resumes it), its events soon.
 */
const END = script(`
redis.call('DEL', KEYS[1])
redis.call('PEXPIRE', KEYS[2], ${ENDED_EVENTS_KEPT_MS})
redis.call('PUBLISH', ARGV[1], '${ENDED}')
return 1
`);

/**
 * KEYS: the session, its events. ARGV: the lease keys' prefix. Returns
 * { owner, replica, 1 if it lives, its events }, read at one moment: read
 * apart, an event landing between the two reads made a session found
 * without the events that made it (a resumption refused as unknown).
 */
const FIND = script(`
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then return false end
local replica = redis.call('HGET', KEYS[1], 'replica')
return { owner, replica, redis.call('EXISTS', ARGV[1] .. replica), redis.call('XRANGE', KEYS[2], '-', '+') }
`);

interface Entry extends LoggedEvent {
  readonly kind: string;
}

interface Follower {
  readonly replica: string;
  end(): void;
}

/**
 * The 2025 session log in Redis: each session that streams has a hash (who
 * opened it, on which replica) and a Redis stream of its events (the last
 * `maxEvents`, for `ttlMs` after the last), both renewed by each event; a
 * notice of each event is also published on the session's channel, so a
 * replica that carries a resumed stream hears what follows as it is sent,
 * and reads it.
 */
export class RedisSessionLog implements SessionLog {
  /** The sessions of other replicas whose streams this one carries, to end them when their replica stops. */
  private readonly followers = new Set<Follower>();

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly replica: string,
    private readonly leaseMs: number,
    private readonly warn: (message: string) => void,
  ) {}

  open(sessionId: string, owner: string | undefined, keep: EventRetention): SessionMirror {
    const { link, keys, replica } = this;
    const sessionKeys = [keys.session(sessionId), keys.events(sessionId)];
    const channel = keys.sessionChannel(sessionId);
    let appended = false;
    const report = (error: unknown) => {
      if (!link.isOutage(error))
        this.warn(`session ${sessionId}: Redis refused an event: ${thrownMessage(error)}`);
    };
    return {
      append(stream, seq, data, kind) {
        appended = true;
        link
          .run("Keeping a stream's event", APPEND, sessionKeys, [
            owner ?? "",
            replica,
            String(stream),
            String(seq),
            KIND_CODE[kind],
            data,
            String(keep.maxEvents),
            String(keep.ttlMs),
            channel,
          ])
          .catch(report);
      },
      ended() {
        if (!appended) return;
        link.run("Ending a session", END, sessionKeys, [channel]).catch(report);
      },
    };
  }

  async follow(
    sessionId: string,
    stream: number,
    afterSeq: number,
  ): Promise<FollowedStream | undefined> {
    const what = "Resuming a stream of a session another replica holds";
    const events = this.keys.events(sessionId);
    // A subscription would wait for Redis to come back; a request must not.
    if (!this.link.reachable) throw this.link.unreachable(what);
    const heard = new Heard();
    let deliver = (message: string) => heard.push(message);
    // Listen first, then read: nothing sent in between is lost (what was read is not told twice).
    const unsubscribe = await this.link
      .subscribe(this.keys.sessionChannel(sessionId), (message) => deliver(message))
      .catch((error: unknown) => {
        throw this.link.unreachable(what, error);
      });
    /** How much was heard when the last read was sent: what came later may be news to it. */
    let readAt = 0;
    const find = () => {
      readAt = heard.messages.length;
      return this.link
        .run(what, FIND, [this.keys.session(sessionId), events], [this.keys.lease("")])
        .then(foundOf, (error: unknown) => {
          unsubscribe();
          throw error;
        });
    };
    let found = await find();
    // The client names an event the session's replica sent as it wrote it to Redis, without
    // waiting: a resume may come here first. Each write tells the channel: read again then.
    const deadline = performance.now() + BEHIND_WRITE_MS;
    while (behindClient(found, stream, afterSeq)) {
      const news = await heard.after(readAt, deadline - performance.now());
      if (news === undefined || news.includes(ENDED)) break;
      found = await find();
    }
    if (!found) {
      unsubscribe();
      return undefined;
    }
    const { owner, replica } = found;
    const alive = found.leased || !this.link.lapseMeansStopped(this.leaseMs);
    const entries = found.entries.filter((entry) => entry.stream === stream);
    const missed = entries.filter((entry) => entry.seq > afterSeq && entry.kind !== "p");
    const over = !alive || entries.some((entry) => entry.kind === "l");
    let last = Math.max(afterSeq, ...missed.map((entry) => entry.seq));
    let follower: Follower | undefined;
    /** Stopped or ended: a read still under way delivers nothing more. */
    let stopped = false;
    const stop = () => {
      stopped = true;
      deliver = () => {};
      if (follower) this.followers.delete(follower);
      unsubscribe();
    };
    return {
      owner: owner === "" ? undefined : owner,
      alive,
      known: stream === 0 || entries.length > 0,
      missed: missed.map(({ stream, seq, data }) => ({ stream, seq, data })),
      over,
      listen: (sink) => {
        const end = () => {
          // A session's end waits for reads, by when its carrier may have let it go (stop()).
          if (stopped) return;
          stop();
          sink.end();
        };
        follower = { replica, end };
        this.followers.add(follower);
        const take = (entry: Entry) => {
          if (stopped || entry.stream !== stream || entry.seq <= last) return;
          last = entry.seq;
          if (entry.kind !== "p") sink.event(entry);
          if (entry.kind === "l") end();
        };
        /** The reads under way, in the order of their notices: the session's end waits for them. */
        let reading: Promise<void> = Promise.resolve();
        deliver = (message) => {
          if (message === ENDED) {
            reading = reading.then(end);
            return;
          }
          const seq = noticedSeq(message, stream);
          if (seq === undefined || seq <= last) return;
          // What followed the last event taken, up to the one told: notices missed included.
          const read = this.link
            .command("Reading a resumed stream's event", [
              "XRANGE",
              events,
              `(${last}-0`,
              `${seq}-0`,
            ])
            .then(
              (read) => {
                for (const reply of read as Reply[]) take(entryOf(reply));
              },
              (error: unknown) => {
                if (!this.link.isOutage(error))
                  this.warn(
                    `session ${sessionId}: reading an event of its stream ${stream}: ${thrownMessage(error)}`,
                  );
              },
            );
          reading = reading.then(() => read);
        };
        for (const message of heard.messages.splice(0)) deliver(message);
      },
      stop,
    };
  }

  /**
   * Ends the streams carried for sessions whose replica has stopped: nothing
   * more will come. Not before this replica has reached Redis for a whole
   * lease (as the tasks' sweep): until then a lapsed lease may be an outage's.
   */
  async endOrphans(): Promise<void> {
    if (!this.link.lapseMeansStopped(this.leaseMs)) return;
    const replicas = [...new Set([...this.followers].map((follower) => follower.replica))];
    for (const replica of replicas) {
      const lives = await this.link.command("Checking a replica", [
        "EXISTS",
        this.keys.lease(replica),
      ]);
      if (lives === 1) continue;
      for (const follower of [...this.followers]) {
        if (follower.replica === replica) follower.end();
      }
    }
  }

  /** Ends every stream carried for another replica's session (this replica is closing). */
  close(): void {
    for (const follower of [...this.followers]) follower.end();
  }
}

function entryOf(reply: Reply): Entry {
  // The fields as APPEND writes them: s <stream> k <kind> d <data>.
  const [id, [, stream, , kind, , data]] = reply as [string, string[]];
  return {
    stream: Number(stream),
    seq: Number.parseInt(id, 10),
    kind: kind ?? "",
    data: data ?? "",
  };
}

/** A session FIND found: who opened it, on which replica, whether that one lives, its events. */
interface Found {
  readonly owner: string;
  readonly replica: string;
  readonly leased: boolean;
  readonly entries: readonly Entry[];
}

function foundOf(reply: unknown): Found | undefined {
  if (!Array.isArray(reply)) return undefined;
  const [owner, replica, leased, read] = reply as [string, string, number, Reply[]];
  return { owner, replica, leased: leased === 1, entries: read.map(entryOf) };
}

/**
 * The resume would be refused (no session, or not this stream) while the log
 * ends before the event the client names: its write has not landed.
 * Sequence numbers count a session's events across its streams, so a later
 * event logged means the named one was too (a stream unknown then is gone).
 */
function behindClient(found: Found | undefined, stream: number, afterSeq: number): boolean {
  if (!found) return true;
  const { entries } = found;
  if (stream === 0 || entries.some((entry) => entry.stream === stream)) return false;
  return !entries.some((entry) => entry.seq >= afterSeq);
}

/** What a session's channel told, kept until a resumed stream listens. */
class Heard {
  readonly messages: string[] = [];
  private wake: (() => void) | undefined;

  push(message: string): void {
    this.messages.push(message);
    this.wake?.();
  }

  /** The messages from index `from` on, once there are any: by now, or within `ms`. */
  async after(from: number, ms: number): Promise<string[] | undefined> {
    const deadline = performance.now() + ms;
    while (this.messages.length <= from) {
      const left = deadline - performance.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    return this.messages.slice(from);
  }
}

/** The sequence number a notice, "<stream> <seq>", tells of, when it is of `stream`. */
function noticedSeq(message: string, stream: number): number | undefined {
  const match = /^(\d+) (\d+)$/.exec(message);
  if (!match || Number(match[1]) !== stream) return undefined;
  return Number(match[2]);
}
