import { invalidParams } from "./params.js";

/** Cursors are opaque to clients: base64url of "o:<offset>". */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString("base64url");
}

/**
 * The offset a cursor stands for. Only the exact string this server issues for
 * it is accepted: base64url decoding is lenient (padding, stray characters,
 * leading zeros all decode to the same offset), and a cache keyed by the
 * string would grow with every variant a client invents.
 */
export function decodeCursor(cursor: string | undefined, total: number): number {
  if (cursor === undefined) return 0;
  const match = /^o:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  const offset = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(offset) || offset > total || encodeCursor(offset) !== cursor) {
    throw invalidParams(
      `Invalid cursor: ${JSON.stringify(cursor)} is not a cursor this server issued`,
    );
  }
  return offset;
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** The page of `items` that starts at `offset` (from decodeCursor). */
export function paginate<T>(items: readonly T[], offset: number, pageSize: number): Page<T> {
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { items: page, nextCursor: encodeCursor(end) } : { items: page };
}
