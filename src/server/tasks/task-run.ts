import { randomUUID } from "node:crypto";
import { onAbort } from "../../define/on-abort.js";
import { thrownDetail, thrownMessage } from "../../define/thrown.js";
import { ErrorCode, isJsonRpcError } from "../../jsonrpc/index.js";
import { isTerminal, RELATED_TASK } from "../../protocol/tasks.js";
import type { CallToolResult } from "../../protocol/types.js";
import type { Engine } from "../engine.js";
import type { ClientChannel, RequestEnv } from "../env.js";
import { InFlight } from "../in-flight.js";
import { type InputMethod, KEY_PREFIX } from "../input-rounds/input-round.js";
import type { Params } from "../params.js";
import { RequestContext } from "../request-context.js";
import { completedEnding, type Ending, ended, failedEnding, thrownError } from "./task-ending.js";
import { TASK_EXPIRED } from "./task-expiry.js";
import type { StoredTask } from "./task-store.js";
import { legacyTask } from "./task-wire.js";

/** A tool's request pipeline (time limit, middleware, definition), run with the task's context. */
export type TaskPipeline = (rc: RequestContext) => Promise<CallToolResult>;

interface Waiter {
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/**
 * One task's run on this server: the tool's pipeline, run in the background
 * with a context of its own. Its `ctx.progress` becomes the task's status
 * message; its asks (`ctx.elicit`, `ctx.sample`, `ctx.roots`) put the task in
 * `input_required` until answered (by `tasks/update`, or by the 2025
 * session's client); its signal aborts when the task is cancelled or
 * expires. Everything it changes goes through the task store, so another
 * replica can read and steer the task.
 *
 * On 2026-07-28 the run starts inside the `tools/call` request and "gathers"
 * until the call is decided a task: what it asks meanwhile is asked through
 * that request's `input_required` round, before any task is created.
 */
export class TaskRun implements ClientChannel {
  readonly taskId = randomUUID();
  readonly inFlight = new InFlight();
  /** The context the pipeline runs with. */
  readonly env: RequestEnv;
  private phase: "gathering" | "running" | "abandoned" | "over" = "gathering";
  private markReady: (created: boolean) => void = () => {};
  /** Whether the task was created: its run's writes wait for it. */
  private readonly ready = new Promise<boolean>((resolve) => {
    this.markReady = resolve;
  });
  private writes: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<string, Waiter>();
  private asked = 0;
  /** What the run last reported before the task existed: the task's first status message. */
  statusMessage: string | undefined;
  /** Whether the pipeline has returned or thrown: its outcome is being recorded. */
  private returned = false;
  /** 2025: channels of `tasks/result` requests waiting on the task; asks travel on the newest. */
  private readonly routes: ClientChannel[] = [];

  constructor(
    private readonly engine: Engine,
    /** The tool whose call it runs. */
    readonly tool: string,
    private readonly origin: RequestEnv,
    /** Who may reach the task (see `ownerOf`). */
    readonly owner: string | undefined,
    private readonly onEnd: (run: TaskRun) => void,
  ) {
    this.env = {
      ...origin,
      inFlight: this.inFlight,
      channel: this,
      // A task reports progress whether or not its client asked for it: as its status message.
      progressToken: origin.progressToken ?? this.taskId,
      closing: undefined,
    };
  }

  /** Runs the pipeline; its outcome is recorded once the task exists. */
  start(pipeline: TaskPipeline): void {
    pipeline(new RequestContext(this.engine, this.env)).then(
      (result) => this.finish({ result }),
      (error: unknown) => this.finish({ error }),
    );
  }

  /**
   * The call is answered with a task: what the run asks and reports from
   * here on goes through the task, once it exists (a store out of the
   * process takes a round trip to create it, which the run may outlast).
   */
  decided(): void {
    if (this.phase === "gathering") this.phase = "running";
  }

  /** The task now exists: asks and progress go through it from here on. */
  created(): void {
    this.decided();
    this.markReady(true);
  }

  /** No task will be created (the request asked for input first, or the store had no room). */
  abandon(reason: string): void {
    this.phase = "abandoned";
    this.markReady(false);
    this.inFlight.cancel(reason);
  }

  /** The store changed the task, here or on another replica: answers, cancellation, expiry (or `why` it is gone). */
  changed(task: StoredTask | undefined, why?: string): void {
    if (task !== undefined) this.tellSession(task);
    if (task === undefined) {
      this.stop(why ?? TASK_EXPIRED);
    } else if (task.status === "cancelled") {
      this.stop(task.statusMessage ?? "The task was cancelled");
    } else if (isTerminal(task.status)) {
      // Ended by its run, or failed by another replica that took this one for stopped.
      if (!this.returned) this.stop(task.statusMessage ?? "The task ended");
    } else {
      const answers = task.inputResponses ?? {};
      for (const [key, waiter] of this.waiting) {
        if (!Object.hasOwn(answers, key)) continue;
        this.waiting.delete(key);
        waiter.resolve(answers[key]);
      }
    }
  }

  /**
   * 2025-11-25: the session that created the task is told of each change
   * (`notifications/tasks/status`, which the revision allows), as a
   * 2026-07-28 listen stream is; tied to no request, as the call has been answered.
   */
  private tellSession(task: StoredTask): void {
    const { era, session } = this.origin;
    if (era !== "stateful" || !session || session.ended || this.phase === "over") return;
    session.notify("notifications/tasks/status", { ...legacyTask(task) });
  }

  /** Stops the run: its signal aborts, and whatever it ends with is not recorded. */
  stop(reason: string): void {
    this.inFlight.cancel(reason);
    this.end();
  }

  /** 2025: asks go on this `tasks/result` request's stream while it waits; returns what ends that. */
  route(channel: ClientChannel): () => void {
    this.routes.push(channel);
    return () => {
      const at = this.routes.indexOf(channel);
      if (at >= 0) this.routes.splice(at, 1);
    };
  }

  /** Writes the state the server stopped in (for a store other replicas read), then stops. */
  async shutDown(): Promise<void> {
    const error = { code: ErrorCode.InternalError, message: SHUT_DOWN };
    this.stop(SHUT_DOWN);
    await this.write((task) => ended(task, { status: "failed", error, statusMessage: SHUT_DOWN }));
  }

  notify(method: string, params: Params): void {
    const progress = method === "notifications/progress";
    if (this.phase === "gathering") {
      // The request is still open: what relates to it goes with it, and progress seeds the task.
      if (progress) this.statusMessage = statusOf(params);
      if (!progress || this.origin.progressToken !== undefined) {
        this.origin.channel.notify(method, params);
      }
      return;
    }
    if (this.phase !== "running") return;
    if (progress) this.report(params);
    // 2026-07-28 sends nothing for a task but its status; 2025 relates it to the task.
    if (this.origin.era === "stateless") return;
    if (progress && this.origin.progressToken === undefined) return;
    this.origin.channel.notify(method, { ...params, _meta: this.related() });
  }

  request(method: string, params: Params, signal: AbortSignal, key?: string): Promise<unknown> {
    if (this.phase === "gathering") {
      const round = this.origin.inputRound;
      if (!round) return Promise.reject(new Error(`${method} cannot be asked for here`));
      return round.ask(method as InputMethod, params, key);
    }
    if (this.phase !== "running") return Promise.reject(new Error("The task has ended"));
    // Keys are the server's, unique over the task's life, whatever the author called the ask.
    const name = `${KEY_PREFIX[method as InputMethod] ?? "input"}-${++this.asked}`;
    return this.origin.era === "stateless"
      ? this.askThroughTask(name, method, params, signal)
      : this.askThroughSession(name, method, params, signal);
  }

  /** 2026-07-28: the ask waits in the task until `tasks/update` brings its answer. */
  private askThroughTask(
    name: string,
    method: string,
    params: Params,
    signal: AbortSignal,
  ): Promise<unknown> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const answer = new Promise<unknown>((resolve, reject) => {
      const stop = onAbort(signal, () => {
        this.waiting.delete(name);
        reject(signal.reason);
      });
      this.waiting.set(name, {
        resolve: (value) => {
          stop();
          resolve(value);
        },
        reject: (error) => {
          stop();
          reject(error);
        },
      });
    });
    this.track(this.persist((task) => asking(task, name, method, params)));
    return answer;
  }

  /** 2025-11-25: the session sends the ask, on a waiting `tasks/result` stream if there is one. */
  private async askThroughSession(
    name: string,
    method: string,
    params: Params,
    signal: AbortSignal,
  ): Promise<unknown> {
    await this.persist((task) => asking(task, name, method, params));
    const channel = this.routes.at(-1) ?? this.origin.channel;
    try {
      if (!channel.request) throw new Error(`${method} cannot reach this task's client`);
      return await channel.request(method, { ...params, _meta: this.related() }, signal);
    } finally {
      this.track(this.persist((task) => answered(task, [name])));
    }
  }

  private report(params: Params): void {
    const statusMessage = statusOf(params);
    this.track(
      this.write((task) =>
        task.statusMessage === statusMessage
          ? undefined
          : { ...task, statusMessage, lastUpdatedAt: Date.now() },
      ),
    );
  }

  private related(): Params {
    return { [RELATED_TASK]: { taskId: this.taskId } };
  }

  private async finish(outcome: { result: CallToolResult } | { error: unknown }): Promise<void> {
    this.returned = true;
    const created = await this.ready;
    if (created && !this.inFlight.cancelled) {
      const ending =
        "result" in outcome
          ? completedEnding(this.tool, outcome.result, this.engine.maxResultBytes)
          : this.failed(outcome.error);
      try {
        await this.persist((task) => ended(task, ending));
      } catch (error) {
        // The store would not keep it (the memory budget, say): the task fails with why.
        const why = thrownError(error);
        await this.write((task) =>
          ended(task, { status: "failed", error: why, statusMessage: why.message }),
        ).catch((again: unknown) => this.warnOf(again));
      }
    }
    this.end();
  }

  /**
   * Writes what a client must see (how the task ended, what it asks); a
   * store out of reach for a while (Redis restarting) is written once it is
   * back, so the task does not stay `working` while its outcome is known,
   * nor its run wait for an answer to what no client was shown.
   */
  private async persist(change: (task: StoredTask) => StoredTask | undefined): Promise<void> {
    const { store } = this.engine.tasks;
    for (;;) {
      try {
        await this.write(change);
        return;
      } catch (error) {
        const back = store.whenBack?.(error);
        if (back === undefined) throw error;
        await back;
      }
    }
  }

  /** A protocol error ends the task failed, with that error; anything else is the server's fault. */
  private failed(thrown: unknown): Ending {
    if (!isJsonRpcError(thrown)) {
      this.engine.warn(`tools/call (task ${this.taskId}) failed: ${thrownDetail(thrown)}`);
    }
    return failedEnding(thrown);
  }

  private end(): void {
    if (this.phase === "over") return;
    this.phase = "over";
    for (const waiter of this.waiting.values()) waiter.reject(new Error("The task has ended"));
    this.waiting.clear();
    this.routes.length = 0;
    this.onEnd(this);
  }

  /** Changes the task, in order, once it exists; a task already ended is left as it is. */
  private write(change: (task: StoredTask) => StoredTask | undefined): Promise<unknown> {
    const next = this.writes.then(async () => {
      if (!(await this.ready)) return undefined;
      return this.engine.tasks.store.update(this.taskId, (task) =>
        isTerminal(task.status) ? undefined : change(task),
      );
    });
    this.writes = next.catch(() => undefined);
    return next;
  }

  /** A write nobody awaits: its failure is reported, not lost. */
  private track(write: Promise<unknown>): void {
    write.catch((error: unknown) => this.warnOf(error));
  }

  private warnOf(error: unknown): void {
    this.engine.warn(`task ${this.taskId}: its store refused a change: ${thrownMessage(error)}`);
  }
}

/** A progress report as a status message: its message, else how far it has got. */
function statusOf({ progress, total, message }: Params): string {
  if (typeof message === "string") return message;
  return total === undefined ? `${progress}` : `${progress}/${total}`;
}

const SHUT_DOWN = "The server stopped before the task finished";

/** The task asking its client for one more thing. */
function asking(task: StoredTask, name: string, method: string, params: Params): StoredTask {
  return {
    ...task,
    status: "input_required",
    inputRequests: { ...task.inputRequests, [name]: { method, params } },
    lastUpdatedAt: Date.now(),
  };
}

/** The task with `names` answered: working again once nothing else is awaited. */
export function answered(task: StoredTask, names: readonly string[]): StoredTask | undefined {
  const requests = { ...task.inputRequests };
  const asked = names.filter((name) => Object.hasOwn(requests, name));
  if (asked.length === 0) return undefined;
  for (const name of asked) delete requests[name];
  const waiting = Object.keys(requests).length > 0;
  return {
    ...task,
    status: waiting ? "input_required" : "working",
    inputRequests: waiting ? requests : undefined,
    lastUpdatedAt: Date.now(),
  };
}
