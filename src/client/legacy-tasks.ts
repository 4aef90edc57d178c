import { onAbort } from "../define/on-abort.js";
import { McpErrorCode } from "../protocol/errors.js";
import { isTerminal, type LegacyWireTask, RELATED_TASK } from "../protocol/tasks.js";
import { InputRequiredError, RequestError } from "./errors.js";
import { withoutMetaKey } from "./framing.js";
import { abortReason, type Link, type Params } from "./link.js";
import type { TaskState } from "./task-follower.js";

/** A tool's `execution.taskSupport`, as tools/list gives it. */
type TaskSupport = "forbidden" | "optional" | "required";

/**
 * 2025-11-25 tasks, for a client that asks for them (`tasks: true`): there
 * the client, not the server, decides that a call runs as a task (the `task`
 * param), and only for a tool that may run as one. What each tool allows is
 * read from tools/list, and read again after a list change.
 */
export class LegacyTasks {
  private support: Map<string, TaskSupport> | undefined;
  /** The tasks being followed: what hears each change the server tells of. */
  private readonly following = new Map<string, (task: LegacyWireTask) => void>();

  constructor(
    private readonly link: Link,
    private readonly listTools: () => Promise<{ tools: { name: string; execution?: unknown }[] }>,
  ) {}

  /** The tools changed: what each allows is read again at the next call. */
  forget(): void {
    this.support = undefined;
  }

  /** A `notifications/tasks/status`: told to the follower of its task, if any. */
  statusChanged(params: Params): void {
    const task = params as unknown as LegacyWireTask;
    this.following.get(task.taskId)?.(task);
  }

  /** Whether a call of tool `name` is sent as a task. */
  async runsAsTask(name: string): Promise<boolean> {
    if (!this.support) {
      const { tools } = await this.listTools();
      this.support = new Map(
        tools.map((tool) => [
          tool.name,
          ((tool.execution as { taskSupport?: TaskSupport } | undefined)?.taskSupport ??
            "forbidden") as TaskSupport,
        ]),
      );
    }
    const support = this.support.get(name);
    return support === "optional" || support === "required";
  }

  /**
   * Follows the task a call was answered with (a 2025-11-25
   * `CreateTaskResult`) to its end, with what 2026-07-28's follower gives:
   * its result, a failed task's error as a RequestError, an Error for a
   * cancelled one, an InputRequiredError (the task cancelled) for an ask no
   * responder answers. What it asks comes over the session to the responders.
   * `seen` hears the task as created, each change the server tells of
   * (`notifications/tasks/status`), and the task as ended, with its result
   * (read once `tasks/result` has answered). Aborting `signal` cancels the task.
   */
  async follow(
    created: Params,
    seen: (task: TaskState) => void,
    signal?: AbortSignal,
  ): Promise<Params> {
    const { taskId } = created.task as LegacyWireTask;
    seen(stateOf(created.task as LegacyWireTask));
    this.following.set(taskId, (task) => {
      if (!isTerminal(task.status)) seen(stateOf(task));
    });
    const waiting = new AbortController();
    const cancel = () => {
      waiting.abort(abortReason(signal, "The request was aborted"));
      void this.link.request("tasks/cancel", { taskId }).catch(() => {});
    };
    const stopWaiting = signal === undefined ? undefined : onAbort(signal, cancel);
    try {
      const result = await this.link.request("tasks/result", { taskId }, waiting.signal);
      seen(stateOf(await this.ended(taskId), result));
      return withoutMetaKey(result, RELATED_TASK);
    } catch (error) {
      if (error instanceof InputRequiredError) {
        // Nothing here answers it: cancelled, the task does not wait for an answer until it expires.
        await this.link.request("tasks/cancel", { taskId }).catch(() => {});
        throw error;
      }
      if (waiting.signal.aborted || !(error instanceof RequestError)) throw error;
      const ended = await this.ended(taskId);
      if (ended.status === "cancelled" && error.code === McpErrorCode.RequestCancelled) {
        seen(stateOf(ended));
        throw new Error(`The task ${taskId} was cancelled`);
      }
      const { code, serverMessage: message, data } = error;
      seen({ ...stateOf(ended), error: { code, message, ...(data !== undefined && { data }) } });
      throw error;
    } finally {
      this.following.delete(taskId);
      stopWaiting?.();
    }
  }

  private async ended(taskId: string): Promise<LegacyWireTask> {
    return (await this.link.request("tasks/get", { taskId })) as unknown as LegacyWireTask;
  }
}

/**
 * A 2025-11-25 task as 2026-07-28 names its fields; a tool's error result
 * ends it completed with that result there, as on 2026-07-28 (2025-11-25
 * calls it failed).
 */
function stateOf(task: LegacyWireTask, result?: Params): TaskState {
  const { ttl, pollInterval, ...rest } = task;
  const state: TaskState = {
    ...rest,
    ttlMs: ttl,
    ...(pollInterval !== undefined && { pollIntervalMs: pollInterval }),
  };
  if (result === undefined) return state;
  return { ...state, status: "completed", result: withoutMetaKey(result, RELATED_TASK) };
}
