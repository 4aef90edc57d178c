/**
 * The keys and channels replicas share in Redis, all under one prefix (by
 * default `mcp-dir:<server name>:`), so several servers can share one Redis
 * without hearing each other.
 */
export class RedisKeys {
  /** Every task, ordered by when it expires. */
  readonly tasks: string;
  /** Each unfinished task's replica. */
  readonly running: string;
  /** Where task changes are told. */
  readonly taskChanges: string;
  /** Where resource updates announced by code are told. */
  readonly resourceUpdates: string;

  constructor(readonly prefix: string) {
    this.tasks = `${prefix}tasks`;
    this.running = `${prefix}running`;
    this.taskChanges = `${prefix}task-changes`;
    this.resourceUpdates = `${prefix}resource-updates`;
  }

  task(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  /** The tasks of one owner (`principal:…` or `session:…`), by creation. */
  owner(owner: string): string {
    return `${this.prefix}owner:${owner}`;
  }

  /** Exists while the replica lives: it renews it before it lapses. */
  lease(replica: string): string {
    return `${this.prefix}replica:${replica}`;
  }

  /** A 2025 session that streamed: who opened it, and on which replica. */
  session(sessionId: string): string {
    return `${this.prefix}session:${sessionId}`;
  }

  /** The events of a 2025 session's streams, kept for Last-Event-ID replay. */
  events(sessionId: string): string {
    return `${this.prefix}events:${sessionId}`;
  }

  /** Where a 2025 session's new events, and its end, are told. */
  sessionChannel(sessionId: string): string {
    return `${this.prefix}session-events:${sessionId}`;
  }
}
