import { invalidParams } from "./params.js";

/**
 * Cursors are opaque to clients: base64url of "<method>:<offset>:<length>",
 * the list method they page, where their page starts, and how many items
 * that list had when the cursor was issued. An issued cursor always starts
 * a page inside that length; the length is what tells a cursor issued for a
 * list that has changed since (a file removed in `dev`, a template's
 * instances fewer) from a well-formed one the server never issued.
 * (`tasks/list` pages by the task, `tasks/task-pages.ts`: tasks expire.)
 */
export function encodeCursor(method: string, offset: number, length: number): string {
  return Buffer.from(`${method}:${offset}:${length}`).toString("base64url");
}

/**
 * Where the page a cursor asks for starts in the list `method` pages, now
 * `length` items long. Refused with -32602, as the spec asks of invalid
 * cursors: any string other than the exact one this server issues
 * (base64url decoding is lenient: padding, stray characters and leading
 * zeros all decode alike, and a page cache must not grow with every
 * variant), another list's cursor, and one whose page would not start
 * inside the list it claims (offset 0, the first page, has no cursor).
 * Served: a cursor issued before the list changed, from where it says, or
 * from the end when the list has since shrunk past it (an empty last page).
 * Offsets can do no better; `list_changed` tells the client to list again.
 */
export function decodeCursor(cursor: string | undefined, method: string, length: number): number {
  if (cursor === undefined) return 0;
  const match = /^([a-z/]+):(\d+):(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  const offset = Number(match?.[2]);
  const issuedLength = Number(match?.[3]);
  const issuable =
    match?.[1] === method &&
    Number.isSafeInteger(issuedLength) &&
    offset > 0 &&
    offset < issuedLength &&
    encodeCursor(method, offset, issuedLength) === cursor;
  if (!issuable) {
    throw unissuedCursor(cursor, method);
  }
  return Math.min(offset, length);
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** The page of `items` (the list `method` pages) that starts at `offset` (from decodeCursor). */
export function paginate<T>(
  items: readonly T[],
  offset: number,
  pageSize: number,
  method: string,
): Page<T> {
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length
    ? { items: page, nextCursor: encodeCursor(method, end, items.length) }
    : { items: page };
}

/** The refusal of a cursor this server never issued for `method`'s pages. */
export function unissuedCursor(cursor: string, method: string): Error {
  return invalidParams(
    `Invalid cursor: ${JSON.stringify(cursor)} is not a cursor this server issued for ${method}; pass the nextCursor of a ${method} result as it came, or no cursor for the first page`,
  );
}
