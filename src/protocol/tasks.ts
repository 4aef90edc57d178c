/**
 * Tasks on the wire: the 2026-07-28 extension (SEP-2663,
 * `io.modelcontextprotocol/tasks`) and the experimental tasks of 2025-11-25,
 * which differ in field names and in what each method returns.
 */

/** The extension a 2026-07-28 client declares, and a server advertises, to use tasks. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** 2025-11-25: the `_meta` key that ties a message to its task. */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** A JSON-RPC error as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** 2026-07-28 `Task`: durations in integer milliseconds, times in ISO 8601. */
export interface WireTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/** 2026-07-28 `DetailedTask`: what `tasks/get` and `notifications/tasks` carry. */
export interface DetailedWireTask extends WireTask {
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  result?: Record<string, unknown>;
  error?: TaskError;
}

/** 2025-11-25 `Task`: the same state with the revision's field names. */
export interface LegacyWireTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}
