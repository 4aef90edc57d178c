import { createHash, randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readdir, stat, unlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { isStringArray } from "../../define/string-array.js";
import { lastChange, type Stamp, stampsOf, unchanged } from "./view-stamps.js";

/** Set to anything but "" or "0", no view is read from or kept in the cache. */
export const DISABLE_CACHE_ENV = "MCP_DIR_DISABLE_CACHE";

/** A script view as esbuild built it. */
export interface ViewBuild {
  readonly ok: true;
  readonly script: string;
  readonly styles: string;
  /** Every file esbuild read (absolute), the packages' included. */
  readonly files: readonly string[];
}

/**
 * An entry's first line: what it was built from and how long its script and
 * style sheet are, in bytes of UTF-8, each after it as built (parsing them
 * as JSON strings would cost more than the rest of a hit). A change to it is
 * a new FORMAT.
 */
interface Header {
  key: string;
  stamps: Stamp[];
  files: string[];
  scriptBytes: number;
  stylesBytes: number;
}

const FORMAT = 2;
/**
 * A build is kept only when everything it depends on was last changed this
 * long before it began: a file system stamps times by a coarse clock (whole
 * seconds on some, two on FAT), so a file changed in the same tick as it was
 * read could change again under the same stamp.
 */
const SETTLE_MS = 2_000;
/**
 * How long entries are kept, and how much: those written longer ago than
 * `expireMs` are removed (one still in use is built and kept again), then the
 * oldest beyond `maxBytes` in all.
 */
const LIMITS = { expireMs: 7 * 24 * 60 * 60 * 1_000, maxBytes: 64 * 1024 * 1024 };

/**
 * Script views as esbuild built them, kept on disk between processes, one
 * file per view and build options: a start whose views are unchanged
 * skips esbuild. An entry is used only while everything its build depended
 * on is as it was (view-stamps.ts); anything amiss (a missing, unreadable,
 * corrupt or foreign entry, a folder another user could write) is no entry,
 * never an error: the view is built as without a cache.
 */
export class ViewCache {
  private trusted = false;
  private swept = false;

  /** `folder` holds the entries; `clock` says when a build began (ms since the epoch). */
  constructor(
    readonly folder: string,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The build of a view for these esbuild `options` (whose entry point names
   * the view): a kept one while nothing it depended on changed, else `run()`'s,
   * kept when it succeeded. A failure is never kept.
   */
  async build<Failure extends { ok: false }>(
    options: object,
    run: () => Promise<ViewBuild | Failure>,
  ): Promise<ViewBuild | Failure> {
    let key: string;
    try {
      key = keyOf(options);
    } catch {
      return run();
    }
    const file = join(this.folder, createHash("sha256").update(key).digest("hex").slice(0, 32));
    const kept = this.read(file, key);
    if (kept) return kept;
    const began = this.clock();
    const built = await run();
    if (built.ok) this.write(file, key, built, began);
    return built;
  }

  private read(file: string, key: string): ViewBuild | undefined {
    try {
      if (!this.isTrusted()) return undefined;
      const entry = readFileSync(file);
      const end = entry.indexOf(10);
      const header: unknown = JSON.parse(entry.toString("utf8", 0, end));
      if (!isHeader(header) || header.key !== key) return undefined;
      const { stamps, files, scriptBytes, stylesBytes } = header;
      if (entry.length !== end + 1 + scriptBytes + stylesBytes || !unchanged(stamps)) {
        return undefined;
      }
      const script = entry.toString("utf8", end + 1, end + 1 + scriptBytes);
      const styles = entry.toString("utf8", end + 1 + scriptBytes);
      return { ok: true, script, styles, files };
    } catch {
      return undefined;
    }
  }

  private write(file: string, key: string, built: ViewBuild, began: number): void {
    const temporary = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
    try {
      const stamps = stampsOf(built.files);
      if (stamps === undefined || lastChange(stamps) > began - SETTLE_MS) return;
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      if (!this.isTrusted()) return;
      const { script, styles, files } = built;
      const header: Header = {
        key,
        stamps,
        files: [...files],
        scriptBytes: Buffer.byteLength(script),
        stylesBytes: Buffer.byteLength(styles),
      };
      // Written whole, then renamed over the entry: a reader sees the old file or the new.
      writeFileSync(temporary, `${JSON.stringify(header)}\n${script}${styles}`, { mode: 0o600 });
      renameSync(temporary, file);
      this.sweepOnce();
    } catch {
      rmSync(temporary, { force: true });
    }
  }

  /**
   * Whether the folder and the one holding it are this user's alone (checked
   * once): in a shared temporary folder, another user's could hold entries
   * made to be served as a view.
   */
  private isTrusted(): boolean {
    this.trusted ||= [this.folder, dirname(this.folder)].every((folder) => {
      const stats = lstatSync(folder, { throwIfNoEntry: false });
      if (stats === undefined || !stats.isDirectory()) return false;
      const uid = process.getuid?.();
      return uid === undefined || (stats.uid === uid && (stats.mode & 0o022) === 0);
    });
    return this.trusted;
  }

  /** After a first entry is written (a build ran, never on a start that skips it): expired and surplus entries go. */
  private sweepOnce(): void {
    if (this.swept) return;
    this.swept = true;
    const now = this.clock();
    setImmediate(() => {
      sweepViewCache(this.folder, now).catch(() => {});
    }).unref();
  }
}

/** Removes the entries of `folder` (and temporary files left behind) past the limits. */
export async function sweepViewCache(folder: string, now: number, limits = LIMITS): Promise<void> {
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

let shared: ViewCache | undefined;

/**
 * The cache of this user's views: in the system's temporary folder, as tsx
 * keeps its own (`mcp-dir-<uid>/views/`); none when DISABLE_CACHE_ENV says so.
 */
export function defaultViewCache(): ViewCache | undefined {
  const disabled = process.env[DISABLE_CACHE_ENV];
  if (disabled !== undefined && disabled !== "" && disabled !== "0") return undefined;
  const user = process.getuid?.() ?? userInfo().username;
  const folder = join(tmpdir(), `mcp-dir-${user}`, "views");
  if (shared?.folder !== folder) shared = new ViewCache(folder);
  return shared;
}

let versions: string | undefined;

/**
 * What decides a build beside the files it reads: the options (the view's
 * path among them), esbuild's version and binary, mcp-dir's version.
 */
function keyOf(options: object): string {
  if (versions === undefined) {
    const require = createRequire(import.meta.url);
    const version = (name: string) =>
      (require(`${name}/package.json`) as { version: string }).version;
    versions = `${FORMAT} mcp-dir@${version("mcp-dir")} esbuild@${version("esbuild")} ${process.env.ESBUILD_BINARY_PATH ?? ""}`;
  }
  return `${versions}\n${JSON.stringify(options)}`;
}

function isHeader(value: unknown): value is Header {
  const header = value as Partial<Header> | null;
  return (
    typeof header?.key === "string" &&
    isSize(header.scriptBytes) &&
    isSize(header.stylesBytes) &&
    isStringArray(header.files) &&
    Array.isArray(header.stamps) &&
    header.stamps.every(isStamp)
  );
}

function isSize(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isStamp(value: unknown): value is Stamp {
  if (!Array.isArray(value) || typeof value[0] !== "string") return false;
  return value.length === 1 || (value.length === 4 && value.slice(1).every(Number.isFinite));
}
