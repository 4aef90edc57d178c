/**
 * The events of 2025 sessions' streams as replicas share them, so that a
 * client that drops a stream may resume it (`Last-Event-ID`) on another
 * replica. Only the streams cross: the session itself (its requests, its
 * asks of the client, its subscriptions) stays on the replica that opened it.
 * Without a shared log each session keeps its events in its own process.
 */
export interface SessionLog {
  /** The log of one session this replica holds: each event its streams send is kept for the others. */
  open(sessionId: string, owner: string | undefined, keep: EventRetention): SessionMirror;
  /**
   * Another replica's stream, from the event after `afterSeq`: undefined
   * when no replica has the session (it ended, or never streamed).
   */
  follow(sessionId: string, stream: number, afterSeq: number): Promise<FollowedStream | undefined>;
}

/** How much of a session's events the log keeps, and how long after the last. */
export interface EventRetention {
  readonly maxEvents: number;
  readonly ttlMs: number;
}

/**
 * What a stream sent: an event to replay, a stream's last event (a POST
 * stream's response), or the priming event that opened a stream (nothing to
 * replay, but the stream can then be resumed).
 */
export type StreamEventKind = "event" | "last" | "prime";

export interface LoggedEvent {
  readonly stream: number;
  readonly seq: number;
  readonly data: string;
}

/** The events of one session, written as its streams send them (in order, without waiting). */
export interface SessionMirror {
  append(stream: number, seq: number, data: string, kind: StreamEventKind): void;
  /** The session ended: its events go, and whoever follows its streams is told. */
  ended(): void;
}

/** One stream of another replica's session, from where a client resumes it. */
export interface FollowedStream {
  /** Who opened the session (its callerKey); only they may resume it. */
  readonly owner: string | undefined;
  /** Whether the replica that holds the session still lives. */
  readonly alive: boolean;
  /** Whether the session had this stream at all (its events may be gone since). */
  readonly known: boolean;
  /** The stream's events after the position asked for, oldest first. */
  readonly missed: readonly LoggedEvent[];
  /** The stream will send nothing more: it ended, or its replica stopped. */
  readonly over: boolean;
  /** Each new event of the stream, in order, then `end` when the stream or the session ends. */
  listen(sink: { event(event: LoggedEvent): void; end(): void }): void;
  /** Stops following (the client left). */
  stop(): void;
}
