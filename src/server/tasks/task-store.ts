import type { TaskError, TaskStatus } from "../../protocol/tasks.js";
import type { JsonObject } from "../../protocol/types.js";

/** One request a task makes of its client, kept until the client answers it. */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/**
 * One task as a store keeps it: JSON values only, so a shared store can keep
 * it out of the process that runs it. Times are epoch milliseconds; each era
 * shows them in its own wire form.
 */
export interface StoredTask {
  /** Random and unguessable: knowing it is what lets a client reach the task. */
  readonly taskId: string;
  /**
   * Who may read and steer it (`principal:…` or `session:…`); undefined when
   * the request that created it had neither, and whoever knows the id may.
   */
  readonly owner: string | undefined;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** How long after its creation the task and its outcome are kept. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** What the task waits for from its client, by key (status input_required). */
  readonly inputRequests?: Readonly<Record<string, TaskInputRequest>>;
  /** The client's answers, by key, until the task ends. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The result of a completed task (a tool's, `isError` included). */
  readonly result?: JsonObject;
  /** The JSON-RPC error of a failed task. */
  readonly error?: TaskError;
}

/** A new state for a task, or undefined to leave it as it is. */
export type TaskChange = (task: StoredTask) => StoredTask | undefined;

/**
 * Told of each change a store makes: the task after it, or undefined once it
 * is gone (its time to live passed, unless `why` says otherwise).
 */
export type TaskListener = (taskId: string, task: StoredTask | undefined, why?: string) => void;

/**
 * Where tasks live between the requests that create, read and steer them.
 * The in-process store serves one process; a shared one (Redis, say) lets
 * replicas serve each other's tasks: it must apply each change atomically
 * and tell it to the subscribers of every replica that runs the task or has
 * read it (`get`), since a task's client may answer or cancel it through a
 * replica other than the one that runs it.
 */
export interface TaskStore {
  /**
   * Keeps a new task for its `ttlMs`. Resolves once `get` finds it
   * everywhere; rejects with the error its client gets when there is no
   * room for it.
   */
  create(task: StoredTask): Promise<void>;
  /** The task, or undefined when there is none by that id (or it expired). */
  get(taskId: string): Promise<StoredTask | undefined>;
  /**
   * Applies `change` to the task as it is now, atomically; resolves to the
   * task after it, or to undefined when there is no such task or `change`
   * left it as it was. Subscribers are told of every change made (a shared
   * store's, of those made to a task this process runs or has read).
   */
  update(taskId: string, change: TaskChange): Promise<StoredTask | undefined>;
  /** The tasks of one owner (2025-11-25's `tasks/list`), oldest first. */
  list(owner: string): Promise<StoredTask[]>;
  /** Returns the function that unsubscribes. */
  subscribe(listener: TaskListener): () => void;
  /**
   * For a store kept out of the process, which may be out of reach for a
   * while: when `error` (what one of its methods threw) says it was,
   * resolves once it can be reached again, so a run can still record how it
   * ended; otherwise undefined.
   */
  whenBack?(error: unknown): Promise<void> | undefined;
}
