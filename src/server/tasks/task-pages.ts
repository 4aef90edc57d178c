import { type Page, unissuedCursor } from "../pagination.js";
import type { StoredTask } from "./task-store.js";

const METHOD = "tasks/list";

type Place = Pick<StoredTask, "createdAt" | "taskId">;

/** Oldest first; tasks created in one millisecond, by id (as Redis orders its sorted sets). */
function byCreation(a: Place, b: Place): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0;
}

/** Opaque to clients: base64url of "tasks/list:<createdAt>:<taskId>", the last task of the page before. */
function encodePlace({ createdAt, taskId }: Place): string {
  return Buffer.from(`${METHOD}:${createdAt}:${taskId}`).toString("base64url");
}

/** The task a cursor names; -32602 for any string other than one this server issues. */
function decodePlace(cursor: string): Place {
  const match = /^tasks\/list:(\d+):([^:]+)$/.exec(Buffer.from(cursor, "base64url").toString());
  const place = { createdAt: Number(match?.[1]), taskId: match?.[2] ?? "" };
  if (!(match && Number.isSafeInteger(place.createdAt) && encodePlace(place) === cursor)) {
    throw unissuedCursor(cursor, METHOD);
  }
  return place;
}

/**
 * One page of an owner's tasks, oldest first. A cursor names the last task
 * of the page before, not a position: a task that expires (or one created)
 * while the client pages moves no other task out of the pages still to come.
 */
export function pageOfTasks(
  tasks: readonly StoredTask[],
  cursor: string | undefined,
  pageSize: number,
): Page<StoredTask> {
  const ordered = [...tasks].sort(byCreation);
  let start = 0;
  if (cursor !== undefined) {
    const after = decodePlace(cursor);
    start = ordered.findIndex((task) => byCreation(task, after) > 0);
    if (start < 0) start = ordered.length;
  }
  const items = ordered.slice(start, start + pageSize);
  const last = items.at(-1);
  return last !== undefined && start + pageSize < ordered.length
    ? { items, nextCursor: encodePlace(last) }
    : { items };
}
