import { createHash } from "node:crypto";
import type { Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";

/** Files up to this size are compared by content, larger ones by size and times. */
const HASH_LIMIT = 1024 * 1024;

/** The fingerprint of an empty file: most likely one being written (truncated, not yet filled). */
export const EMPTY = "empty";
/** The fingerprint of a path where no file is. */
export const GONE = "-";

/** What a file holds, to tell whether it changed: its content's hash, `EMPTY`, or `GONE`. */
export async function fingerprint(path: string): Promise<string> {
  return describe(path, () => "");
}

/**
 * What a file holds and when it was written: a second report of one save
 * finds the same stamp, a save of the same bytes (a `touch`) does not.
 * Timestamps alone would miss a second save within the clock's tick.
 */
export async function stamp(path: string): Promise<string> {
  return describe(path, (stats) => `${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}:`);
}

async function describe(path: string, written: (stats: Stats) => string): Promise<string> {
  try {
    const stats = await stat(path);
    if (!stats.isFile()) return "not a file";
    if (stats.size === 0) return `${written(stats)}${EMPTY}`;
    if (stats.size > HASH_LIMIT) return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
    const hash = createHash("sha1")
      .update(await readFile(path))
      .digest("base64");
    return `${written(stats)}${hash}`;
  } catch {
    return GONE;
  }
}
