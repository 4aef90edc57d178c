import { createHash } from "node:crypto";
import type { Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { SETTLE_MS } from "../file-stamps.js";

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
 * Timestamps alone would miss a second save within the clock's tick: a file
 * changed in the last SETTLE_MS is stamped with its content too, one last
 * changed before (`now` is when it is stamped) by its times alone, as
 * nothing can change it again under them (most files of a start: reading
 * and hashing each took 150 ms of a `dev` start on 1000 files, its times
 * alone 35).
 */
export async function stamp(path: string, now = Date.now()): Promise<string> {
  return describe(
    path,
    (stats) => `${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}:`,
    (stats) => Math.max(stats.mtimeMs, stats.ctimeMs) <= now - SETTLE_MS,
  );
}

async function describe(
  path: string,
  written: (stats: Stats) => string,
  settled: (stats: Stats) => boolean = () => false,
): Promise<string> {
  try {
    const stats = await stat(path);
    if (!stats.isFile()) return "not a file";
    if (stats.size === 0) return `${written(stats)}${EMPTY}`;
    if (settled(stats)) return `${written(stats)}${stats.size}`;
    if (stats.size > HASH_LIMIT) return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
    const hash = createHash("sha1")
      .update(await readFile(path))
      .digest("base64");
    return `${written(stats)}${hash}`;
  } catch {
    return GONE;
  }
}
