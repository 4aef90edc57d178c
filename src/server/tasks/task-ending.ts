import { thrownMessage } from "../../define/thrown.js";
import { ErrorCode, isJsonRpcError } from "../../jsonrpc/index.js";
import type { TaskError } from "../../protocol/tasks.js";
import type { CallToolResult, JsonObject } from "../../protocol/types.js";
import { cannotEncode, sizeOver, tooLarge } from "../result-size.js";
import type { StoredTask } from "./task-store.js";

/** What a task keeps of its run's end: its status and the result or error that goes with it. */
export type Ending = Pick<StoredTask, "status" | "result" | "error" | "statusMessage">;

/**
 * A result of `tool` as the task keeps it: encoded once, as a request's
 * would be, and within the size limit.
 */
export function completedEnding(
  tool: string,
  result: CallToolResult,
  maxResultBytes: number,
): Ending {
  const params = { name: tool };
  let json: string;
  try {
    json = JSON.stringify(result);
  } catch (error) {
    const message = cannotEncode("tools/call", params, error);
    return {
      status: "failed",
      error: { code: ErrorCode.InternalError, message },
      statusMessage: message,
    };
  }
  const bytes = sizeOver(json, maxResultBytes);
  const kept =
    bytes === undefined
      ? json
      : JSON.stringify(tooLarge("tools/call", params, bytes, maxResultBytes));
  // What it reported on the way is over: a completed task says nothing more than its result.
  return {
    status: "completed",
    result: JSON.parse(kept) as JsonObject,
    statusMessage: undefined,
  };
}

/** A run that threw: the task fails with the error it threw, as the task keeps it. */
export function failedEnding(thrown: unknown): Ending {
  const error = thrownError(thrown);
  return { status: "failed", error, statusMessage: error.message };
}

/** The task at its end: what it was waiting for, and the answers it had, go. */
export function ended(task: StoredTask, ending: Ending): StoredTask {
  const { inputRequests: _asked, inputResponses: _answers, ...rest } = task;
  return { ...rest, ...ending, lastUpdatedAt: Date.now() };
}

/** A protocol error as it is; anything else is the server's fault. */
export function thrownError(thrown: unknown): TaskError {
  if (isJsonRpcError(thrown)) {
    return thrown.data === undefined
      ? { code: thrown.code, message: thrown.message }
      : { code: thrown.code, message: thrown.message, data: thrown.data };
  }
  return {
    code: ErrorCode.InternalError,
    message: `Internal error in tools/call: ${thrownMessage(thrown)}`,
  };
}
