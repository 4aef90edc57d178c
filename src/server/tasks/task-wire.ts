import type { DetailedWireTask, LegacyWireTask, WireTask } from "../../protocol/tasks.js";
import type { StoredTask } from "./task-store.js";

/** 2026-07-28 `Task`: what `CreateTaskResult` carries beside `resultType: "task"`. */
export function wireTask(task: StoredTask): WireTask {
  const wire: WireTask = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/**
 * 2026-07-28 `DetailedTask` (`tasks/get`, `notifications/tasks`): the task
 * with what its status holds: the pending requests, the result, the error.
 */
export function detailedTask(task: StoredTask): DetailedWireTask {
  const wire: DetailedWireTask = wireTask(task);
  if (task.status === "input_required") wire.inputRequests = { ...task.inputRequests };
  if (task.status === "completed" && task.result) wire.result = task.result;
  if (task.status === "failed" && task.error) wire.error = task.error;
  return wire;
}

/**
 * 2025-11-25 `Task`. That revision calls a tool's `isError` result a failed
 * task, where the extension calls it completed.
 */
export function legacyTask(task: StoredTask): LegacyWireTask {
  const wire: LegacyWireTask = {
    taskId: task.taskId,
    status: task.status === "completed" && task.result?.isError === true ? "failed" : task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttl: task.ttlMs,
    pollInterval: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}
