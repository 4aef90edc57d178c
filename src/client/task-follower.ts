import { onAbort } from "../define/on-abort.js";
import { type DetailedWireTask, isTerminal } from "../protocol/tasks.js";
import { type InputRequest, RequestError } from "./errors.js";
import { abortReason, CLOSED_BEFORE_ANSWER, type Params, type ServerNotification } from "./link.js";

import type { StatelessLink, Subscription } from "./stateless-link.js";

/** A task's state as the client sees it change (2026-07-28 `DetailedTask`). */
export type TaskState = DetailedWireTask;

/**
 * Follows a task a request was answered with (a 2026-07-28 `CreateTaskResult`)
 * to its end, on a listen stream of its own: each state is told to `seen`,
 * what the task asks is answered by the client's responders (`tasks/update`),
 * and its result is what this resolves to. A failed task rejects with its
 * error as a RequestError; a cancelled one with an Error saying so. Aborting
 * `signal` cancels the task (`tasks/cancel`) and rejects with its reason, as
 * an ask the responders cannot answer does with the error saying so.
 */
export async function followTask(
  link: StatelessLink,
  created: Params,
  seen: (task: TaskState) => void,
  deliver: (notification: ServerNotification) => void,
  signal?: AbortSignal,
): Promise<Params> {
  const taskId = String(created.taskId);
  const answered = new Set<string>();
  let settle: { resolve(result: Params): void; reject(error: unknown): void } | undefined;
  const ended = new Promise<Params>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // It may end (cancelled) before it is awaited below.
  ended.catch(() => {});
  let over = false;
  let queue = Promise.resolve();

  const see = async (task: TaskState) => {
    if (over) return;
    seen(task);
    if (isTerminal(task.status)) {
      over = true;
      if (task.status === "completed" && task.result) settle?.resolve(task.result);
      else if (task.status === "failed" && task.error) {
        const { code, message, data } = task.error;
        settle?.reject(new RequestError(code, message, data));
      } else settle?.reject(new Error(`The task ${taskId} was ${task.status}`));
      return;
    }
    // A request stays listed until its answer is taken: answer each once.
    const asked = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
    if (task.status !== "input_required" || asked.length === 0) return;
    for (const [key] of asked) answered.add(key);
    const inputResponses = await link.answer(
      Object.fromEntries(asked) as Record<string, InputRequest>,
    );
    await link.request("tasks/update", { taskId, inputResponses });
  };
  // The client gives up on the task (its caller aborted, or what it asks has no
  // answer here): cancelled, it does not wait for an answer until it expires.
  const giveUp = (reason: unknown) => {
    if (over) return;
    over = true;
    const rejectNow = () => settle?.reject(reason);
    link.request("tasks/cancel", { taskId }).then(rejectNow, rejectNow);
  };
  const enqueue = (task: TaskState) => {
    queue = queue.then(() => see(task)).catch(giveUp);
  };

  // As a call's signal cancels the call, it cancels the task the call became.
  const cancel = () => giveUp(abortReason(signal, "The request was aborted"));
  const stopWaiting = signal === undefined ? undefined : onAbort(signal, cancel);

  let subscription: Subscription | undefined;
  try {
    subscription = await link.listen({ taskIds: [taskId] }, (notification) => {
      if (notification.method === "notifications/tasks" && notification.params.taskId === taskId) {
        enqueue(notification.params as unknown as TaskState);
      }
      deliver(notification);
    });
    // The stream ends before the task when the client closes (or the server ends it).
    void subscription.closed.then(() => {
      if (over) return;
      over = true;
      settle?.reject(
        new Error(
          link.closed
            ? CLOSED_BEFORE_ANSWER
            : `The listen stream following task ${taskId} ended before the task did`,
        ),
      );
    });
    // Followed from the acknowledgement on: what happened before is read once.
    enqueue((await link.request("tasks/get", { taskId })) as unknown as TaskState);
    return await ended;
  } finally {
    stopWaiting?.();
    await subscription?.close();
  }
}
