export interface StoredEvent {
  readonly id: string;
  readonly data: string;
}

interface Entry {
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
 * final event of a stream can still resume it.
 */
export class EventStore {
  private readonly streams = new Map<number, Entry[]>();
  private seq = 0;
  private count = 0;
  private bytes = 0;

  constructor(
    private readonly maxEvents: number,
    private readonly maxBytes: number,
  ) {}

  /** An id for an event that is not kept (a priming event: nothing to replay). */
  nextId(stream: number): string {
    return eventId(stream, ++this.seq);
  }

  append(stream: number, data: string): string {
    const seq = ++this.seq;
    let entries = this.streams.get(stream);
    if (!entries) {
      entries = [];
      this.streams.set(stream, entries);
    }
    entries.push({ seq, data });
    this.count++;
    this.bytes += data.length;
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

  clear(): void {
    this.streams.clear();
    this.count = 0;
    this.bytes = 0;
  }

  private evictOldest(): void {
    const first = this.streams.entries().next();
    if (first.done) return;
    const [stream, entries] = first.value;
    const evicted = entries.shift();
    if (evicted) {
      this.count--;
      this.bytes -= evicted.data.length;
    }
    if (entries.length === 0) this.streams.delete(stream);
  }
}
