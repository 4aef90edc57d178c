import { invalidParams } from "./params.js";

/** Cursors are opaque to clients: base64url of "o:<offset>". */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString("base64url");
}

export function decodeCursor(cursor: string | undefined, total: number): number {
  if (cursor === undefined) return 0;
  const match = /^o:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  const offset = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(offset) || offset > total) {
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

export function paginate<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number,
): Page<T> {
  const offset = decodeCursor(cursor, items.length);
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { items: page, nextCursor: encodeCursor(end) } : { items: page };
}
