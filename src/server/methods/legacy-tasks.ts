import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import { McpErrorCode } from "../../protocol/errors.js";
import { isTerminal, RELATED_TASK } from "../../protocol/tasks.js";
import type { Meta } from "../../protocol/types.js";
import { supports } from "../../protocol/versions.js";
import { invalidParams, optionalString, type Params } from "../params.js";
import type { RequestContext } from "../request-context.js";
import { pageOfTasks } from "../tasks/task-pages.js";
import type { StoredTask } from "../tasks/task-store.js";
import { legacyTask } from "../tasks/task-wire.js";
import { ownerOf } from "../tasks/tasks.js";

/** Refuses a tasks method on the 2025 revisions that have no tasks (all but 2025-11-25). */
function onlyWithTasks(rc: RequestContext, method: string): void {
  const version = rc.env.protocolVersion;
  if (supports(version, "legacyTasks")) return;
  throw new JsonRpcError(
    ErrorCode.MethodNotFound,
    `Method not found: ${method} (protocol ${version} has no tasks; 2025-11-25 and 2026-07-28 do)`,
  );
}

/** The task a 2025 request names, on the one revision that has tasks. */
function sessionTask(params: Params, rc: RequestContext, method: string): Promise<StoredTask> {
  onlyWithTasks(rc, method);
  return rc.engine.tasks.find(params, rc.env, method);
}

export async function getLegacyTask(params: Params, rc: RequestContext): Promise<unknown> {
  return legacyTask(await sessionTask(params, rc, "tasks/get"));
}

/**
 * What the call would have answered, once the task has ended: its result,
 * or its error. Until then the request waits, and what the task asks its
 * client meanwhile travels on this request's stream.
 */
export async function legacyTaskResult(params: Params, rc: RequestContext): Promise<unknown> {
  let task = await sessionTask(params, rc, "tasks/result");
  const { taskId } = task;
  if (!isTerminal(task.status)) {
    const unroute = rc.engine.tasks.runOf(taskId)?.route(rc.env.channel);
    try {
      const ended = await rc.engine.tasks.ended(taskId, rc.signal);
      if (!ended) throw gone(taskId);
      task = ended;
    } finally {
      unroute?.();
    }
  }
  if (task.status === "failed" && task.error) {
    throw new JsonRpcError(task.error.code, task.error.message, task.error.data);
  }
  if (task.status !== "completed" || !task.result) {
    throw new JsonRpcError(McpErrorCode.RequestCancelled, `Task "${taskId}" was cancelled`);
  }
  const meta = task.result._meta as Meta | undefined;
  return { ...task.result, _meta: { ...meta, [RELATED_TASK]: { taskId } } };
}

/** The tasks of this client (its session, or its principal), a page at a time. */
export async function listLegacyTasks(params: Params, rc: RequestContext): Promise<unknown> {
  onlyWithTasks(rc, "tasks/list");
  const cursor = optionalString(params, "cursor", "tasks/list");
  const owner = ownerOf(rc.env);
  const owned = owner === undefined ? [] : await rc.engine.tasks.store.list(owner);
  const { items, nextCursor } = pageOfTasks(owned, cursor, rc.engine.pageSize);
  const tasks = items.map(legacyTask);
  return nextCursor === undefined ? { tasks } : { tasks, nextCursor };
}

/** Cancels a task that has not ended, and answers with it; a task that has ended is refused. */
export async function cancelLegacyTask(params: Params, rc: RequestContext): Promise<unknown> {
  const { taskId } = await sessionTask(params, rc, "tasks/cancel");
  const task = await rc.engine.tasks.cancel(taskId);
  if (task) return legacyTask(task);
  const now = await rc.engine.tasks.store.get(taskId);
  if (!now) throw gone(taskId);
  throw invalidParams(
    `tasks/cancel: cannot cancel task "${taskId}": it has already ended (${legacyTask(now).status})`,
  );
}

function gone(taskId: string): JsonRpcError {
  return invalidParams(
    `The task "${taskId}" expired before it ended (tasks are kept for their ttl)`,
  );
}
