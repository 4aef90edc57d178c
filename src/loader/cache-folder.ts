import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readdir, stat, unlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";

/** Set to anything but "" or "0", nothing is read from or kept in mcp-dir's caches. */
export const DISABLE_CACHE_ENV = "MCP_DIR_DISABLE_CACHE";

/**
 * How long entries are kept, and how much: those written longer ago than
 * `expireMs` are removed (one still in use is made and kept again), then the
 * oldest beyond `maxBytes` in all.
 */
export interface CacheLimits {
  expireMs: number;
  maxBytes: number;
}

const LIMITS: CacheLimits = { expireMs: 7 * 24 * 60 * 60 * 1_000, maxBytes: 64 * 1024 * 1024 };

const require = createRequire(import.meta.url);

/** The version of a package mcp-dir depends on (or of mcp-dir): a cache key names those it was made with. */
export function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

/**
 * A folder of this user's cache named `name`, in the system's temporary
 * folder as tsx keeps its own (`mcp-dir-<uid>/<name>/`); none when
 * DISABLE_CACHE_ENV says so.
 */
export function userCacheFolder(name: string): string | undefined {
  const disabled = process.env[DISABLE_CACHE_ENV];
  if (disabled !== undefined && disabled !== "" && disabled !== "0") return undefined;
  const user = process.getuid?.() ?? userInfo().username;
  return join(tmpdir(), `mcp-dir-${user}`, name);
}

/**
 * A folder of cache entries, one file each: read only when it is this user's
 * alone, written whole and renamed into place, swept of what is past its
 * limits after a first write.
 */
export class CacheFolder {
  private trusted = false;
  private swept = false;

  constructor(
    readonly folder: string,
    private readonly clock: () => number = Date.now,
    private readonly limits: CacheLimits = LIMITS,
  ) {}

  /**
   * Whether the folder and the one holding it are this user's alone (checked
   * until true): in a shared temporary folder, another user's could hold
   * entries made to be run or served.
   */
  isTrusted(): boolean {
    this.trusted ||= [this.folder, dirname(this.folder)].every((folder) => {
      const stats = lstatSync(folder, { throwIfNoEntry: false });
      if (stats === undefined || !stats.isDirectory()) return false;
      const uid = process.getuid?.();
      return uid === undefined || (stats.uid === uid && (stats.mode & 0o022) === 0);
    });
    return this.trusted;
  }

  /**
   * Writes `content` as the entry `file` (a path in the folder): whole, then
   * renamed over it, so a reader sees the old file or the new. Says whether
   * it was written; a cache that cannot be written is none, never an error.
   */
  write(file: string, content: string | Uint8Array): boolean {
    const temporary = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
    try {
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      if (!this.isTrusted()) return false;
      writeFileSync(temporary, content, { mode: 0o600 });
      renameSync(temporary, file);
      this.sweepOnce();
      return true;
    } catch {
      rmSync(temporary, { force: true });
      return false;
    }
  }

  /**
   * An entry written by writeEntry: its first line's JSON (what it was made
   * from, to be checked by the reader), and the whole file, its body from
   * `bodyStart`; undefined when it is absent, unreadable or not this user's.
   */
  readEntry(file: string): { header: unknown; bytes: Buffer; bodyStart: number } | undefined {
    try {
      if (!this.isTrusted()) return undefined;
      const bytes = readFileSync(file);
      const end = bytes.indexOf(10);
      if (end < 0) return undefined;
      return { header: JSON.parse(bytes.toString("utf8", 0, end)), bytes, bodyStart: end + 1 };
    } catch {
      return undefined;
    }
  }

  /**
   * Writes the entry `file`: `header` as JSON on its first line, then `body`
   * (its parts one after another; parsing them as JSON strings would cost
   * more than the rest of a read). What was written, or undefined (see write).
   */
  writeEntry(
    file: string,
    header: unknown,
    body: readonly (string | Uint8Array)[],
  ): { bytes: Buffer; bodyStart: number } | undefined {
    const line = Buffer.from(`${JSON.stringify(header)}\n`);
    const bytes = Buffer.concat([
      line,
      ...body.map((part) => (typeof part === "string" ? Buffer.from(part) : part)),
    ]);
    return this.write(file, bytes) ? { bytes, bodyStart: line.length } : undefined;
  }

  /** After a first entry is written (never on a start that only reads): expired and surplus entries go. */
  private sweepOnce(): void {
    if (this.swept) return;
    this.swept = true;
    const now = this.clock();
    setImmediate(() => {
      sweepCacheFolder(this.folder, now, this.limits).catch(() => {});
    }).unref();
  }
}

/** Removes the entries of `folder` (and temporary files left behind) past the limits. */
export async function sweepCacheFolder(
  folder: string,
  now: number,
  limits: CacheLimits = LIMITS,
): Promise<void> {
  const found = await Promise.all(
    (await readdir(folder)).map(async (name) => {
      const path = join(folder, name);
      const stats = await stat(path).catch(() => undefined);
      return stats?.isFile() ? { path, written: stats.mtimeMs, size: stats.size } : undefined;
    }),
  );
  const newestFirst = found.flatMap((file) => (file ? [file] : []));
  newestFirst.sort((a, b) => b.written - a.written);
  let bytes = 0;
  for (const { path, written, size } of newestFirst) {
    const kept = now - written <= limits.expireMs && bytes + size <= limits.maxBytes;
    if (kept) bytes += size;
    else await unlink(path).catch(() => {});
  }
}
