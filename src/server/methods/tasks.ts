import { readResponses } from "../input-rounds/input-round.js";
import { invalidParams, type Params } from "../params.js";
import type { RequestContext } from "../request-context.js";
import { detailedTask } from "../tasks/task-wire.js";
import { declaresTasks, tasksExtensionRequired } from "../tasks/tasks.js";
import {
  cancelLegacyTask,
  getLegacyTask,
  legacyTaskResult,
  listLegacyTasks,
} from "./legacy-tasks.js";
import { BOTH_ERAS, type MethodTable, STATEFUL_ONLY, STATELESS_ONLY } from "./method.js";

/**
 * The tasks methods: 2026-07-28's extension (`tasks/get`, `tasks/update`,
 * `tasks/cancel`, for clients that declare it) and 2025-11-25's
 * experimental tasks (`tasks/get`, `tasks/result`, `tasks/list`,
 * `tasks/cancel`), which share two names and little else.
 */
export const taskMethods: MethodTable = {
  "tasks/get": {
    eras: BOTH_ERAS,
    names: "taskId",
    needsSession: true,
    handler: (params, rc) =>
      rc.env.era === "stateless" ? getTask(params, rc) : getLegacyTask(params, rc),
  },
  "tasks/update": { eras: STATELESS_ONLY, names: "taskId", handler: updateTask },
  "tasks/cancel": {
    eras: BOTH_ERAS,
    names: "taskId",
    needsSession: true,
    handler: (params, rc) =>
      rc.env.era === "stateless" ? cancelTask(params, rc) : cancelLegacyTask(params, rc),
  },
  "tasks/result": { eras: STATEFUL_ONLY, needsSession: true, handler: legacyTaskResult },
  "tasks/list": { eras: STATEFUL_ONLY, needsSession: true, handler: listLegacyTasks },
};

/** The task a 2026-07-28 request names, for a client that declared the extension. */
async function declaredTask(params: Params, rc: RequestContext, method: string) {
  if (!declaresTasks(rc.env.clientCapabilities)) {
    throw tasksExtensionRequired(`${method} is a method of the tasks extension`);
  }
  return rc.engine.tasks.find(params, rc.env, method);
}

/** The task as it is now, with its result, error or pending requests. */
async function getTask(params: Params, rc: RequestContext): Promise<unknown> {
  return detailedTask(await declaredTask(params, rc, "tasks/get"));
}

/**
 * Answers some or all of what the task waits for; answers to anything it
 * does not wait for are ignored, as the extension has it.
 */
async function updateTask(params: Params, rc: RequestContext): Promise<unknown> {
  const { taskId } = await declaredTask(params, rc, "tasks/update");
  if (params.inputResponses === undefined) {
    throw invalidParams('tasks/update: "inputResponses" is required');
  }
  await rc.engine.tasks.answer(taskId, readResponses(params.inputResponses));
  return {};
}

/** Cancels a task that has not ended; a task that has is left as it is, and acknowledged alike. */
async function cancelTask(params: Params, rc: RequestContext): Promise<unknown> {
  const { taskId } = await declaredTask(params, rc, "tasks/cancel");
  await rc.engine.tasks.cancel(taskId);
  return {};
}
