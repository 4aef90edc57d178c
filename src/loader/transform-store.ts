import { createHash } from "node:crypto";
import { join, relative, sep } from "node:path";
import { CacheFolder, packageVersion, userCacheFolder } from "./cache-folder.js";
import {
  configStamps,
  lastChange,
  SETTLE_MS,
  type Stamp,
  stampOf,
  unchanged,
} from "./file-stamps.js";
import { oweWrite, paid } from "./owed-writes.js";
import { TRANSFORMS_MARK } from "./speculative-transforms.js";

/**
 * The store's first line: what it was made under, and each file's stamp and
 * the length of its code (bytes of UTF-8, in order after the line). A change
 * to it is a new FORMAT.
 */
interface Header {
  key: string;
  context: Stamp[];
  files: [path: string, size: number, mtimeMs: number, ctimeMs: number, bytes: number][];
}

const FORMAT = 1;
/** How long after a change the store is written, so that a burst of saves in `dev` writes it once. */
const WRITE_AFTER_MS = 1_000;

/** A file present: its path, size and times. */
type Present = Exclude<Stamp, readonly [string]>;
/** A file's code as kept: recorded in this process, or a range of the store as read or written. */
type Kept = { stamp: Present; code: string } | { stamp: Present; start: number; end: number };

/**
 * One server directory's author files as tsx compiled them, kept in one file
 * between processes: a start whose files are as they were compiles each from
 * the store, without tsx's path for it (reading the file, hashing it with its
 * options, reading and parsing its own cache entry, encoding its source map
 * inline: measured at a third of a warm start of a thousand files).
 *
 * A file's code is used only while the file keeps its size and times, and
 * the store only while what else decides tsx's transform is as it was: the
 * versions of mcp-dir, tsx, esbuild and Node, the folder the process started
 * in and the tsconfig.json tsx takes from there (file-stamps.ts). Anything
 * amiss is no entry: the file goes through tsx as without a store.
 */
export class TransformStore {
  private read = false;
  /** The store file as last read or written: the code of entries not recorded in this process. */
  private buffer: Buffer | undefined;
  /** What the store file holds and this process has not looked at yet. */
  private readonly stored = new Map<string, Kept>();
  /** What this process used or recorded: what the store is written with. */
  private readonly used = new Map<string, Kept>();
  private writeTimer: NodeJS.Timeout | undefined;
  private readonly file: string;
  private readonly entries: CacheFolder;

  private readonly key: string;

  /** `cwd` and `tsconfigPath`: where the process started, and tsx's TSX_TSCONFIG_PATH. */
  constructor(
    private readonly dir: string,
    folder: string,
    private readonly started: { cwd: string; tsconfigPath?: string | undefined } = {
      cwd: process.cwd(),
      tsconfigPath: process.env.TSX_TSCONFIG_PATH,
    },
  ) {
    this.key = contextKey(dir, started.cwd, started.tsconfigPath);
    this.entries = new CacheFolder(folder);
    // One store per directory and start: a directory served from two folders keeps both.
    const name = JSON.stringify([dir, started.cwd, started.tsconfigPath ?? ""]);
    this.file = join(folder, createHash("sha256").update(name).digest("hex").slice(0, 32));
  }

  /** The code tsx compiled `path` to, while the file is as it was then. */
  take(path: string): string | undefined {
    if (!this.read) this.readStore();
    const kept = this.used.get(path) ?? this.stored.get(path);
    if (kept === undefined) return undefined;
    this.stored.delete(path);
    if (!sameStamp(stampOf(path), kept.stamp)) {
      this.used.delete(path);
      this.changed();
      return undefined;
    }
    this.used.set(path, kept);
    return "code" in kept ? kept.code : this.buffer?.toString("utf8", kept.start, kept.end);
  }

  /** Keeps what tsx compiled `path` to, stamped before tsx read it, at `began`. */
  keep(path: string, stamp: Stamp, code: string, began: number): void {
    if (!isPresent(stamp) || lastChange([stamp]) > began - SETTLE_MS) {
      if (this.used.delete(path)) this.changed();
      return;
    }
    this.used.set(path, { stamp, code });
    this.changed();
  }

  private readStore(): void {
    this.read = true;
    const entry = this.entries.readEntry(this.file);
    if (entry === undefined) return;
    const { header, bytes, bodyStart } = entry;
    try {
      if (!isHeader(header) || header.key !== this.key || !unchanged(header.context)) return;
      const found = this.ranges(header.files, bodyStart, bytes.length);
      if (found === undefined) return;
      for (const [path, kept] of found) this.stored.set(path, kept);
      this.buffer = bytes;
    } catch {
      // A store that cannot be read is none: every file goes through tsx.
    }
  }

  /** Each file's entry, its code a range of the store from `start`; undefined unless they end at `length`. */
  private ranges(
    files: Header["files"],
    start: number,
    length: number,
  ): Map<string, Kept> | undefined {
    const found = new Map<string, Kept>();
    let at = start;
    for (const [path, size, mtimeMs, ctimeMs, bytes] of files) {
      const stamp: Present = [join(this.dir, path), size, mtimeMs, ctimeMs];
      found.set(stamp[0], { stamp, start: at, end: at + bytes });
      at += bytes;
    }
    return at === length ? found : undefined;
  }

  private changed(): void {
    oweWrite(this.write);
    clearTimeout(this.writeTimer);
    this.writeTimer = setTimeout(this.write, WRITE_AFTER_MS).unref();
  }

  /** Writes the store with what this process used; from then on, their code is read from what was written. */
  readonly write = (): void => {
    clearTimeout(this.writeTimer);
    paid(this.write);
    const context = configStamps(this.started.cwd, this.started.tsconfigPath);
    if (context === undefined) return;
    const files: Header["files"] = [];
    const codes: Buffer[] = [];
    for (const [path, kept] of this.used) {
      const code =
        "code" in kept ? Buffer.from(kept.code) : this.buffer?.subarray(kept.start, kept.end);
      const [, size, mtimeMs, ctimeMs] = kept.stamp;
      if (code === undefined) continue;
      files.push([relative(this.dir, path), size, mtimeMs, ctimeMs, code.length]);
      codes.push(code);
    }
    const written = this.entries.writeEntry(this.file, { key: this.key, context, files }, codes);
    if (written === undefined) return;
    const found = this.ranges(files, written.bodyStart, written.bytes.length);
    if (found === undefined) return;
    this.used.clear();
    for (const [path, kept] of found) this.used.set(path, kept);
    this.buffer = written.bytes;
  };
}

/** The store of the author files under `dir`, if caching is on (tsx's and mcp-dir's). */
export function transformStoreFor(dir: string): TransformStore | undefined {
  if (process.env.TSX_DISABLE_CACHE) return undefined;
  const folder = userCacheFolder("transforms");
  return folder === undefined ? undefined : new TransformStore(dir, folder);
}

/** What decides tsx's transforms beside a file and the tsconfig.json (stamped apart). */
function contextKey(dir: string, cwd: string, tsconfigPath: string | undefined): string {
  const versions = ["mcp-dir", "tsx", "esbuild"].map((name) => `${name}@${packageVersion(name)}`);
  return JSON.stringify([
    FORMAT,
    ...versions,
    TRANSFORMS_MARK,
    process.env.ESBUILD_BINARY_PATH ?? "",
    process.version,
    cwd,
    tsconfigPath ?? "",
    dir,
  ]);
}

function isPresent(stamp: Stamp): stamp is Present {
  return stamp.length === 4;
}

function sameStamp(a: Stamp, b: Present): boolean {
  return isPresent(a) && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

function isHeader(value: unknown): value is Header {
  const header = value as Partial<Header> | null;
  return (
    typeof header?.key === "string" &&
    Array.isArray(header.context) &&
    Array.isArray(header.files) &&
    header.files.every(
      (entry) =>
        Array.isArray(entry) &&
        entry.length === 5 &&
        typeof entry[0] === "string" &&
        !entry[0].startsWith(`..${sep}`) &&
        entry.slice(1).every(Number.isFinite),
    )
  );
}
