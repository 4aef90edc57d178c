import { isTerminal, type TaskStatus } from "../protocol/tasks.js";
import {
  type InProcessClient,
  type InProcessOptions,
  type InputRequest,
  InputRequiredError,
} from "./in-process-client.js";

type Params = Record<string, unknown>;

/** A task as `tasks/get` and `notifications/tasks` show it (2026-07-28). */
interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  inputRequests?: Record<string, InputRequest>;
  result?: Params;
  error?: { code: number; message: string };
}

/** "task 3f…: working: 5 of 10 sections" */
function describeTask({ taskId, status, statusMessage }: TaskState): string {
  return `task ${taskId}: ${status}${statusMessage === undefined ? "" : `: ${statusMessage}`}`;
}

/**
 * Follows a task a call was answered with to its end, on a listen stream:
 * each change of its status is told to `report`, what it asks is answered
 * through `fulfil` (tasks/update), and its result is what this resolves to.
 * A failed or cancelled task rejects, as a JSON-RPC error would.
 */
export function followTask(
  client: InProcessClient,
  created: Params,
  fulfil: InProcessOptions["fulfil"],
  report: (line: string) => void,
): Promise<Params> {
  const taskId = String(created.taskId);
  const answered = new Set<string>();
  let told = "";
  let over = false;
  let queue = Promise.resolve();
  return new Promise<Params>((resolve, reject) => {
    const fail = (error: unknown) => {
      over = true;
      stop();
      reject(error);
    };
    const see = async (task: TaskState) => {
      if (over) return;
      const line = describeTask(task);
      if (line !== told) report(line);
      told = line;
      if (isTerminal(task.status)) {
        over = true;
        stop();
        if (task.status === "completed" && task.result) resolve(task.result);
        else if (task.status === "failed" && task.error) {
          reject(new Error(`${task.error.message} (JSON-RPC error ${task.error.code})`));
        } else reject(new Error(`The task was ${task.status}`));
        return;
      }
      // A request stays listed until its answer is taken: answer each once.
      const asked = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
      if (task.status !== "input_required" || asked.length === 0) return;
      for (const [key] of asked) answered.add(key);
      const requests = Object.fromEntries(asked);
      if (!fulfil) throw new InputRequiredError(requests);
      await client.request("tasks/update", { taskId, inputResponses: await fulfil(requests) });
    };
    const enqueue = (task: TaskState) => {
      queue = queue.then(() => see(task)).catch(fail);
    };
    const stop = client.onNotification((method, params) => {
      if (method === "notifications/tasks" && params.taskId === taskId) {
        enqueue(params as unknown as TaskState);
      } else if (method === "notifications/subscriptions/acknowledged") {
        // Followed from here on: what happened before is read once.
        client
          .request("tasks/get", { taskId })
          .then((task) => enqueue(task as unknown as TaskState), fail);
      }
    });
    // Ends when the client closes; a refusal fails the call.
    client
      .request("subscriptions/listen", { notifications: { taskIds: [taskId] } })
      .catch((error: unknown) => {
        if (!over) fail(error);
      });
  });
}
