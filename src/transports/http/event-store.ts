import type { SessionMirror } from "../../server/replicas/session-log.js";
import { type EventKeeper, type PooledEvent, ReplayPool } from "./replay-pool.js";

export interface StoredEvent {
  readonly id: string;
  readonly data: string;
}

interface Entry {
  readonly stream: number;
  readonly seq: number;
  readonly data: string;
}

/** The id of the standalone GET stream; POST streams are numbered from 1. */
export const STANDALONE_STREAM = 0;

/** Event ids are "<stream>.<seq>": unique in the session, and they name their stream. */
export function eventId(stream: number, seq: number): string {
  return `${stream}.${seq}`;
}

export function parseEventId(id: string): { stream: number; seq: number } | undefined {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(id);
  if (!match) return undefined;
  return { stream: Number(match[1]), seq: Number(match[2]) };
}

/**
 * The events of one session, kept for Last-Event-ID replay. Bounded by count
 * and bytes: past either limit the oldest stream loses its oldest events first.
 * A finished stream's events stay until pushed out, so a client that lost the
 * final event of a stream can still resume it. The pool bounds the events of
 * every session together, and may take this one's oldest for another's newest.
 */
export class EventStore implements EventKeeper {
  private readonly streams = new Map<number, Entry[]>();
  private seq = 0;
  private count = 0;
  private bytes = 0;

  /** Where the events also go for other replicas (a log shared through Redis), once the session has an id. */
  mirror: SessionMirror | undefined;

  constructor(
    private readonly maxEvents: number,
    private readonly maxBytes: number,
    private readonly pool = new ReplayPool(Number.POSITIVE_INFINITY),
  ) {}

  /** An id for an event that is not kept (a priming event: nothing to replay). */
  nextId(stream: number): string {
    const seq = ++this.seq;
    this.mirror?.append(stream, seq, "", "prime");
    return eventId(stream, seq);
  }

  /** Keeps an event of `stream`; `last`: the stream's final event (a POST stream's response). */
  append(stream: number, data: string, last = false): string {
    const seq = ++this.seq;
    this.mirror?.append(stream, seq, data, last ? "last" : "event");
    let entries = this.streams.get(stream);
    if (!entries) {
      entries = [];
      this.streams.set(stream, entries);
    }
    const entry = { stream, seq, data };
    entries.push(entry);
    this.count++;
    this.bytes += data.length;
    this.pool.added(entry, this);
    while (this.count > this.maxEvents || (this.bytes > this.maxBytes && this.count > 1)) {
      this.evictOldest();
    }
    return eventId(stream, seq);
  }

  /** The kept events of `stream` after sequence number `seq`, oldest first. */
  after(stream: number, seq: number): StoredEvent[] {
    const entries = this.streams.get(stream);
    if (!entries) return [];
    const events: StoredEvent[] = [];
    for (const entry of entries) {
      if (entry.seq > seq) events.push({ id: eventId(stream, entry.seq), data: entry.data });
    }
    return events;
  }

  has(stream: number): boolean {
    return this.streams.has(stream);
  }

  /** The highest sequence number handed out so far. */
  get lastSeq(): number {
    return this.seq;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes of the kept events, counted as the characters of their data. */
  get byteSize(): number {
    return this.bytes;
  }

  clear(): void {
    this.mirror?.ended();
    this.mirror = undefined;
    for (const entries of this.streams.values()) {
      for (const entry of entries) this.pool.removed(entry);
    }
    this.streams.clear();
    this.count = 0;
    this.bytes = 0;
  }

  /** The pool took `event` for a newer one, of this session or another. */
  drop(event: PooledEvent): void {
    const { stream } = event as Entry;
    const entries = this.streams.get(stream);
    const at = entries?.indexOf(event as Entry) ?? -1;
    if (!entries || at === -1) return;
    entries.splice(at, 1);
    this.forget(stream, entries, event as Entry);
  }

  private evictOldest(): void {
    const first = this.streams.entries().next();
    if (first.done) return;
    const [stream, entries] = first.value;
    const evicted = entries.shift();
    if (!evicted) {
      this.streams.delete(stream);
      return;
    }
    this.pool.removed(evicted);
    this.forget(stream, entries, evicted);
  }

  private forget(stream: number, entries: Entry[], gone: Entry): void {
    this.count--;
    this.bytes -= gone.data.length;
    if (entries.length === 0) this.streams.delete(stream);
  }
}
