import { thrownMessage } from "../../define/thrown.js";
import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import { McpErrorCode } from "../../protocol/errors.js";
import { isTerminal } from "../../protocol/tasks.js";
import type { StoredTask, TaskChange, TaskListener, TaskStore } from "../tasks/task-store.js";
import type { RedisKeys } from "./redis-keys.js";
import type { RedisLink, Reply } from "./redis-link.js";
import { CREATE_TASK, SWEEP_TASKS, UPDATE_TASK } from "./task-scripts.js";

/** What a task whose replica died ends with. */
export const REPLICA_STOPPED =
  "The replica running the task stopped before it finished (its lease in Redis lapsed)";

/** Why the run of a task Redis no longer has, after an outage, is stopped. */
export const LOST_IN_RESTART =
  "The task is gone from Redis, which came back without it (restarted without its data?)";

/**
 * A change told on the channel: a notice of the task's new version (the task
 * itself, whose result may be megabytes, is read by a replica that follows
 * it: pushed to every subscriber, a few such would overflow Redis's output
 * buffer for pub/sub clients, which then drops them all), or its end.
 */
type Heard = { taskId: string; version: number } | { taskId: string; gone: true };

/**
 * Tasks kept in Redis, so that any replica may read, answer and cancel a
 * task another one runs. Each change is a compare-and-set on the task's
 * version (a change function may so run more than once: it must only compute
 * the new state), and a notice of it is published to every replica; one that
 * follows the task (it runs it, or read it) reads it then, and its
 * subscribers hear each version once and in order (of a task changed again
 * before the read, the newer version only). Each replica renews a lease while
 * it lives; a task whose replica's lease lapses is failed by whichever
 * replica sweeps next, and a task's expiry is told once, by the replica that
 * sweeps it.
 */
export class RedisTaskStore implements TaskStore {
  private readonly listeners = new Set<TaskListener>();
  /**
   * The version last told of each task this replica has heard of or read,
   * and when it expires: older news is dropped, and these are read again
   * after an outage.
   */
  private readonly told = new Map<string, { version: number; expires: number }>();
  /** Timers of the tasks created here, which sweep when each expires. */
  private readonly expiries = new Map<string, NodeJS.Timeout>();
  private listening: Promise<() => void> | undefined;
  /** Tasks being read by `get`, which a notice heard meanwhile is for. */
  private readonly looking = new Map<string, number>();
  /** "<id> <version>" of the changes this replica is making, which it tells itself. */
  private readonly making = new Map<string, number>();

  constructor(
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly replica: string,
    /** How long the replica's lease lasts from a renewal: creating a task renews it. */
    private readonly leaseMs: number,
    private readonly maxTasks: number,
    private readonly warn: (message: string) => void,
  ) {}

  /** Resolves once this replica hears the changes other replicas make. */
  listen(): Promise<unknown> {
    if (this.listening === undefined) {
      this.link.onReturn(() => {
        this.catchUp().catch(() => {
          // Out of reach again: looked for at its next return.
        });
      });
      this.listening = this.link.subscribe(this.keys.taskChanges, (message) => this.heard(message));
    }
    return this.listening;
  }

  async create(task: StoredTask): Promise<void> {
    const { taskId, owner, ttlMs, createdAt } = task;
    const expires = createdAt + ttlMs;
    const kept = await this.link.run(
      "A tool call that runs as a task",
      CREATE_TASK,
      [
        this.keys.task(taskId),
        this.keys.tasks,
        this.keys.running,
        this.keys.owner(owner ?? ""),
        this.keys.lease(this.replica),
      ],
      [
        taskId,
        JSON.stringify(task),
        String(ttlMs),
        String(expires),
        String(Date.now()),
        String(this.maxTasks),
        this.replica,
        String(createdAt),
        owner === undefined ? "0" : "1",
        String(this.leaseMs),
      ],
    );
    if (kept === 0) {
      throw new JsonRpcError(
        McpErrorCode.TransportError,
        `The server keeps ${this.maxTasks} tasks at most (tasks.maxTasks), for all its replicas together, and has that many: try again once one has expired (each is kept for its ttlMs), or raise tasks.maxTasks in mcp-dir.config.ts or createServer`,
      );
    }
    this.told.set(taskId, { version: 1, expires });
    const timer = setTimeout(() => {
      this.expiries.delete(taskId);
      void this.sweep();
    }, ttlMs);
    timer.unref();
    this.expiries.set(taskId, timer);
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    count(this.looking, taskId, 1);
    let data: Reply;
    try {
      data = await this.link.command("Reading a task", ["HGET", this.keys.task(taskId), "data"]);
    } finally {
      count(this.looking, taskId, -1);
    }
    if (typeof data !== "string") return undefined;
    const task = JSON.parse(data) as StoredTask;
    // Followed from now on (0: nothing told yet), so that an outage's catch-up reads it again.
    if (!this.told.has(taskId)) this.told.set(taskId, { version: 0, expires: expiry(task) });
    return task;
  }

  async update(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    const key = this.keys.task(taskId);
    for (;;) {
      const [version, data] = (await this.link.command("Changing a task", [
        "HMGET",
        key,
        "v",
        "data",
      ])) as [string | null, string | null];
      if (version === null || data === null) return undefined;
      const read = JSON.parse(data) as StoredTask;
      // A version made elsewhere whose notice this replica let pass (see `heard`) is told here.
      this.tell(taskId, Number(version), read);
      const next = change(read);
      if (next === undefined) return undefined;
      const json = JSON.stringify(next);
      const nextVersion = Number(version) + 1;
      const message = JSON.stringify({ taskId, version: nextVersion });
      const making = `${taskId} ${nextVersion}`;
      count(this.making, making, 1);
      let outcome: Reply;
      try {
        outcome = await this.link.run(
          "Changing a task",
          UPDATE_TASK,
          [key, this.keys.running],
          [
            version,
            json,
            isTerminal(next.status) ? "1" : "0",
            taskId,
            this.keys.taskChanges,
            message,
          ],
        );
      } finally {
        count(this.making, making, -1);
      }
      if (outcome === -1) return undefined;
      if (outcome === 1) {
        this.tell(taskId, nextVersion, next);
        return next;
      }
      // Another change came first: apply this one to the task as that left it.
    }
  }

  async list(owner: string): Promise<StoredTask[]> {
    const index = this.keys.owner(owner);
    const ids = (await this.link.command("Listing tasks", [
      "ZRANGE",
      index,
      "0",
      "-1",
    ])) as string[];
    const found = await Promise.all(ids.map((taskId) => this.get(taskId)));
    const expired = ids.filter((_id, at) => found[at] === undefined);
    if (expired.length > 0) {
      this.link.command("Listing tasks", ["ZREM", index, ...expired]).catch(() => {
        // Left for the next list to remove.
      });
    }
    return found.filter((task): task is StoredTask => task !== undefined);
  }

  subscribe(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  whenBack(error: unknown): Promise<void> | undefined {
    return this.link.isOutage(error) ? this.link.whenBack() : undefined;
  }

  /**
   * Tells of the tasks that expired, and fails those whose replica stopped.
   * Run by every replica in turn; what one does, the others find done. A
   * lapsed lease says a replica stopped only once this one has reached Redis
   * for a whole lease: after an outage every replica first renews its own.
   */
  async sweep(): Promise<void> {
    const now = Date.now();
    for (const [taskId, { expires }] of this.told) {
      if (expires < now) this.told.delete(taskId);
    }
    const orphans = (await this.link.run(
      "Sweeping tasks",
      SWEEP_TASKS,
      [this.keys.tasks, this.keys.running],
      [
        String(now),
        this.keys.taskChanges,
        this.keys.lease(""),
        this.link.lapseMeansStopped(this.leaseMs) ? "1" : "0",
      ],
    )) as Reply[];
    for (const taskId of orphans as string[]) {
      await this.update(taskId, (task) => {
        if (isTerminal(task.status)) return undefined;
        const { inputRequests: _asked, inputResponses: _answers, ...rest } = task;
        return {
          ...rest,
          status: "failed",
          error: { code: ErrorCode.InternalError, message: REPLICA_STOPPED },
          statusMessage: REPLICA_STOPPED,
          lastUpdatedAt: Date.now(),
        };
      });
    }
  }

  /**
   * Redis came back: what changed meanwhile was told on a channel this
   * replica did not hear, so each task it follows is read again, and a
   * newer version told (an answer, a cancellation, an end). A task Redis no
   * longer has (it restarted without its data) is gone for every client,
   * and told so, its run here stopped with why.
   */
  private async catchUp(): Promise<void> {
    const ids = [...this.told.keys()];
    const read = (await Promise.all(
      ids.map((taskId) =>
        this.link.command("Reading a task again", ["HMGET", this.keys.task(taskId), "v", "data"]),
      ),
    )) as [string | null, string | null][];
    const now = Date.now();
    for (const [at, taskId] of ids.entries()) {
      const [version, data] = read[at] ?? [null, null];
      if (version !== null && data !== null) {
        this.tell(taskId, Number(version), JSON.parse(data) as StoredTask);
        continue;
      }
      const told = this.told.get(taskId);
      // One whose time to live passed meanwhile is told by the sweep, as any expiry.
      if (told === undefined || told.expires <= now) continue;
      this.told.delete(taskId);
      const timer = this.expiries.get(taskId);
      if (timer !== undefined) {
        clearTimeout(timer);
        this.expiries.delete(taskId);
        this.warn(
          `task ${taskId} is gone from Redis at ${this.link.where}, which came back without it (restarted without its data?): its run here was stopped`,
        );
      }
      this.tellListeners(taskId, undefined, LOST_IN_RESTART);
    }
  }

  /** Stops the expiry timers; the subscription ends with the link. */
  close(): void {
    for (const timer of this.expiries.values()) clearTimeout(timer);
    this.expiries.clear();
  }

  private heard(message: string): void {
    let heard: Heard;
    try {
      heard = JSON.parse(message) as Heard;
    } catch {
      this.warn(`a task change heard from Redis is not JSON, and was ignored: ${message}`);
      return;
    }
    const { taskId } = heard;
    if ("gone" in heard) {
      this.told.delete(taskId);
      this.tellListeners(taskId, undefined);
      return;
    }
    if (!this.follows(taskId)) return;
    if ((this.told.get(taskId)?.version ?? 0) >= heard.version) return;
    // This replica's own change, told by `update` once made (or, if another came first, read there).
    if (this.making.has(`${taskId} ${heard.version}`)) return;
    this.readTold(taskId).catch((error: unknown) => {
      // Out of reach: read again by the catch-up once Redis is back.
      if (!this.link.isOutage(error))
        this.warn(`reading task ${taskId}, changed on another replica: ${thrownMessage(error)}`);
    });
  }

  /** Whether this replica keeps the task's news: it runs it, read it, or is reading it. */
  private follows(taskId: string): boolean {
    return this.told.has(taskId) || this.looking.has(taskId);
  }

  /** Reads the task a notice told of, and tells it (unless it went meanwhile). */
  private async readTold(taskId: string): Promise<void> {
    const [version, data] = (await this.link.command("Reading a changed task", [
      "HMGET",
      this.keys.task(taskId),
      "v",
      "data",
    ])) as [string | null, string | null];
    if (version === null || data === null || !this.follows(taskId)) return;
    this.tell(taskId, Number(version), JSON.parse(data) as StoredTask);
  }

  /** Tells listeners of a version newer than any told before; this replica's own changes come back too. */
  private tell(taskId: string, version: number, task: StoredTask): void {
    const told = this.told.get(taskId);
    if (told !== undefined && told.version >= version) return;
    this.told.set(taskId, { version, expires: expiry(task) });
    this.tellListeners(taskId, task);
  }

  private tellListeners(taskId: string, task: StoredTask | undefined, why?: string): void {
    for (const listener of [...this.listeners]) listener(taskId, task, why);
  }
}

/** Adds `by` to the count of `key`, forgetting it at 0. */
function count(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next === 0) counts.delete(key);
  else counts.set(key, next);
}

function expiry(task: StoredTask): number {
  return task.createdAt + task.ttlMs;
}
