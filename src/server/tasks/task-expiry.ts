import { ErrorCode } from "../../jsonrpc/index.js";
import { isTerminal } from "../../protocol/tasks.js";
import type { StoredTask } from "./task-store.js";

/** Why a task's run is stopped, and its followers told it failed, when its time to live passes first. */
export const TASK_EXPIRED = "The task's time to live passed before it finished";

/**
 * What a follower keeps of a task to tell its end should the store drop it
 * unfinished: the task without what its status holds (no result, asks or
 * answers, whose size is not bounded), or undefined once it has ended.
 */
export function unfinishedSummary(task: StoredTask): StoredTask | undefined {
  if (isTerminal(task.status)) return undefined;
  const { taskId, owner, status, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs } = task;
  return { taskId, owner, status, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs };
}

/**
 * The last state of a task the store dropped before it ended (its time to
 * live passed, or `why`): failed, saying why. The tasks extension lets a
 * server mark a task failed once its TTL has elapsed, and delete it after;
 * a follower told so knows the task's end, as a poll can no longer say it.
 */
export function goneUnfinished(summary: StoredTask, why = TASK_EXPIRED): StoredTask {
  return {
    ...summary,
    status: "failed",
    statusMessage: why,
    error: { code: ErrorCode.InternalError, message: why },
    lastUpdatedAt: Date.now(),
  };
}
