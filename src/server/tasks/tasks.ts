import { onAbort } from "../../define/on-abort.js";
import { MAX_TIMEOUT_MS } from "../../define/timeout.js";
import { JsonRpcError } from "../../jsonrpc/index.js";
import { isJsonObject } from "../../jsonrpc/json-object.js";
import { McpErrorCode } from "../../protocol/errors.js";
import { isTerminal, TASKS_EXTENSION } from "../../protocol/tasks.js";
import type { ClientCapabilities } from "../../protocol/types.js";
import type { RequestEnv } from "../env.js";
import type { MemoryBudget } from "../memory-budget.js";
import { invalidParams, type Params, requireString } from "../params.js";
import type { RequestContext } from "../request-context.js";
import { InProcessTaskStore } from "./in-process-task-store.js";
import { answered, type TaskPipeline, TaskRun } from "./task-run.js";
import type { StoredTask, TaskStore } from "./task-store.js";
import { legacyTask, wireTask } from "./task-wire.js";

export interface TaskOptions {
  /** How long (ms) a task and its outcome are kept from its creation. Default 1 hour. */
  ttlMs?: number;
  /** How often (ms) clients are asked to poll a task, at most. Default 1 second. */
  pollIntervalMs?: number;
  /** Tasks kept at once, for all clients (and, in Redis, all replicas) together. Default 1000. */
  maxTasks?: number;
  /**
   * Where tasks are kept. Default: in this process. A shared store lets
   * replicas read, answer and cancel each other's tasks.
   */
  store?: TaskStore;
}

const DEFAULT_TTL_MS = 60 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 1000;
export const DEFAULT_MAX_TASKS = 1000;

/** Whether a 2026-07-28 request's client declared the tasks extension. */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  const { extensions } = capabilities;
  return isJsonObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

/** -32021 for a client that did not declare the tasks extension, saying what needs it. */
export function tasksExtensionRequired(what: string): JsonRpcError {
  return new JsonRpcError(
    McpErrorCode.MissingRequiredClientCapability,
    `${what}, and the client did not declare the "${TASKS_EXTENSION}" extension; declare it in the request's client capabilities (extensions)`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** Who may reach the tasks a request creates: its principal, else its 2025 session, else anyone. */
export function ownerOf(env: RequestEnv): string | undefined {
  if (env.principal !== undefined) return `principal:${env.principal}`;
  return env.session ? `session:${env.session.id}` : undefined;
}

/**
 * The tasks of one server: where they are kept, the runs this process has
 * going, and the rules both eras share (who may reach a task, how long it is
 * kept). The methods of each era turn them into their own wire shapes.
 */
export class TaskService {
  readonly store: TaskStore;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The tasks this process runs, by id. */
  private readonly runs = new Map<string, TaskRun>();

  constructor(options: TaskOptions, memory: MemoryBudget) {
    this.ttlMs = duration(options.ttlMs, DEFAULT_TTL_MS, "tasks.ttlMs");
    this.pollIntervalMs = duration(
      options.pollIntervalMs,
      DEFAULT_POLL_INTERVAL_MS,
      "tasks.pollIntervalMs",
    );
    const maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS;
    if (!(Number.isInteger(maxTasks) && maxTasks > 0)) {
      throw new TypeError(`tasks.maxTasks must be a positive whole number, got ${maxTasks}`);
    }
    this.store = options.store ?? new InProcessTaskStore(maxTasks, memory);
    this.store.subscribe((taskId, task, why) => this.runs.get(taskId)?.changed(task, why));
  }

  /**
   * Runs a tool call as a task; resolves to what answers the call. On
   * 2026-07-28 the run starts in the request, and what it asks before it
   * first waits on anything else (a timer, I/O, any promise not yet settled)
   * is asked through the request's `input_required` round (undefined is
   * returned: the round answers); the task is created once it has got that
   * far. On 2025-11-25 the client asked for the task, and it is created at
   * once.
   */
  async run(
    rc: RequestContext,
    tool: string,
    pipeline: TaskPipeline,
    requestedTtl?: unknown,
  ): Promise<unknown> {
    const { env, engine } = rc;
    const run = new TaskRun(engine, tool, env, ownerOf(env), (ended) => {
      if (this.runs.get(ended.taskId) === ended) this.runs.delete(ended.taskId);
    });
    if (env.era === "stateless") {
      run.start(pipeline);
      await afterMicrotasks();
      if (env.inFlight.cancelled) {
        run.abandon("The client cancelled the call before its task began");
        return undefined;
      }
      if (env.inputRound?.hasPending) {
        run.abandon("The call asked for input before its task began; it runs again when answered");
        return undefined;
      }
      // Not the request's from here: an ask made while the store creates the task is the task's.
      run.decided();
    }
    const task = await this.create(run, requestedTtl);
    if (env.era === "stateful") run.start(pipeline);
    return env.era === "stateless"
      ? { resultType: "task", ...wireTask(task) }
      : { task: legacyTask(task) };
  }

  private async create(run: TaskRun, requestedTtl: unknown): Promise<StoredTask> {
    const now = Date.now();
    const task: StoredTask = {
      taskId: run.taskId,
      owner: run.owner,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlFor(requestedTtl),
      pollIntervalMs: this.pollIntervalMs,
      ...(run.statusMessage !== undefined && { statusMessage: run.statusMessage }),
    };
    try {
      await this.store.create(task);
    } catch (error) {
      run.abandon("The server had no room for the task");
      throw error;
    }
    this.runs.set(run.taskId, run);
    run.created();
    return task;
  }

  /** 2025-11-25 lets a client ask for a shorter life than the server's. */
  private ttlFor(requested: unknown): number {
    return Number.isInteger(requested) && (requested as number) > 0
      ? Math.min(requested as number, this.ttlMs)
      : this.ttlMs;
  }

  /**
   * The task `params.taskId` names, if the request may reach it; otherwise
   * -32602, the same whether it never existed, expired or is another
   * client's, so that no one learns which.
   */
  async find(params: Params, env: RequestEnv, method: string): Promise<StoredTask> {
    const taskId = requireString(params, "taskId", method);
    const task = await this.store.get(taskId);
    if (!task || (task.owner !== undefined && task.owner !== ownerOf(env))) {
      throw invalidParams(
        `${method}: there is no task ${JSON.stringify(taskId)} for this client: it never existed, it expired (tasks are kept for their ttlMs), or another client created it`,
      );
    }
    return task;
  }

  /**
   * Gives a task the answers to what it waits for, which its run (on any
   * replica) takes from there; answers to anything else are ignored.
   */
  answer(taskId: string, responses: Record<string, unknown>): Promise<StoredTask | undefined> {
    return this.store.update(taskId, (task) => {
      if (isTerminal(task.status)) return undefined;
      const keys = Object.keys(responses).filter((key) =>
        Object.hasOwn(task.inputRequests ?? {}, key),
      );
      const next = answered(task, keys);
      if (!next) return undefined;
      const given = Object.fromEntries(keys.map((key) => [key, responses[key]]));
      return { ...next, inputResponses: { ...task.inputResponses, ...given } };
    });
  }

  /**
   * Moves a task that has not ended to `cancelled`, saying `why` (which its
   * run's signal is aborted with); resolves to it after, or undefined.
   */
  cancel(taskId: string, why = "The client cancelled the task"): Promise<StoredTask | undefined> {
    return this.store.update(taskId, (task) => {
      if (isTerminal(task.status)) return undefined;
      const { inputRequests: _asked, inputResponses: _answers, ...rest } = task;
      return { ...rest, status: "cancelled", statusMessage: why, lastUpdatedAt: Date.now() };
    });
  }

  /**
   * A 2025 session ended: the tasks only it could reach are cancelled, as
   * no one could read their outcome (those of a principal live on).
   */
  async sessionEnded(sessionId: string): Promise<void> {
    const owner = `session:${sessionId}`;
    const orphans = [...this.runs.values()].filter((run) => run.owner === owner);
    await Promise.all(
      orphans.map((run) => this.cancel(run.taskId, "The session that created the task ended")),
    );
  }

  /** The run of a task, when this process runs it. */
  runOf(taskId: string): TaskRun | undefined {
    return this.runs.get(taskId);
  }

  /** Resolves with the task once it has ended, or with undefined once it is gone; `signal` stops the wait. */
  ended(taskId: string, signal: AbortSignal): Promise<StoredTask | undefined> {
    return new Promise((resolve, reject) => {
      let unsubscribe = () => {};
      let stopWaiting = () => {};
      const stop = () => {
        unsubscribe();
        stopWaiting();
      };
      const settle = (task: StoredTask | undefined) => {
        if (task !== undefined && !isTerminal(task.status)) return;
        stop();
        resolve(task);
      };
      unsubscribe = this.store.subscribe((id, task) => {
        if (id === taskId) settle(task);
      });
      stopWaiting = onAbort(signal, () => {
        stop();
        reject(signal.reason);
      });
      // It may have ended before the subscription began.
      this.store.get(taskId).then(settle, (error: unknown) => {
        stop();
        reject(error);
      });
    });
  }

  /** Stops every run of this process, leaving each task failed with why. */
  async close(): Promise<void> {
    const runs = [...this.runs.values()];
    this.runs.clear();
    await Promise.allSettled(runs.map((run) => run.shutDown()));
  }
}

/**
 * Resolves once the promise reactions queued now, and all they queue in
 * turn, have run, and before any timer or I/O callback: a handler started
 * just before is then finished, ended at an ask not yet answered (whose
 * promise is already settled), or waiting on something else.
 */
function afterMicrotasks(): Promise<void> {
  return new Promise((resolve) => queueMicrotask(() => process.nextTick(resolve)));
}

function duration(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value > 0 && value <= MAX_TIMEOUT_MS)) {
    throw new TypeError(
      `${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${value}`,
    );
  }
  return value;
}
