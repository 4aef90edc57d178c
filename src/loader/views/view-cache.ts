import { createHash } from "node:crypto";
import { join } from "node:path";
import { isStringArray } from "../../define/string-array.js";
import { CacheFolder, packageVersion, userCacheFolder } from "../cache-folder.js";
import { lastChange, SETTLE_MS, type Stamp, stampsOf, unchanged } from "../file-stamps.js";

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
 * Script views as esbuild built them, kept on disk between processes, one
 * file per view and build options: a start whose views are unchanged
 * skips esbuild. An entry is used only while everything its build depended
 * on is as it was (file-stamps.ts); anything amiss (a missing, unreadable,
 * corrupt or foreign entry, a folder another user could write) is no entry,
 * never an error: the view is built as without a cache.
 */
export class ViewCache {
  private readonly entries: CacheFolder;

  /** `folder` holds the entries; `clock` says when a build began (ms since the epoch). */
  constructor(
    readonly folder: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.entries = new CacheFolder(folder, clock);
  }

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
    const entry = this.entries.readEntry(file);
    if (entry === undefined) return undefined;
    const { header, bytes, bodyStart } = entry;
    try {
      if (!isHeader(header) || header.key !== key) return undefined;
      const { stamps, files, scriptBytes, stylesBytes } = header;
      if (bytes.length !== bodyStart + scriptBytes + stylesBytes || !unchanged(stamps)) {
        return undefined;
      }
      const script = bytes.toString("utf8", bodyStart, bodyStart + scriptBytes);
      const styles = bytes.toString("utf8", bodyStart + scriptBytes);
      return { ok: true, script, styles, files };
    } catch {
      return undefined;
    }
  }

  private write(file: string, key: string, built: ViewBuild, began: number): void {
    let stamps: Stamp[] | undefined;
    try {
      stamps = stampsOf(built.files);
    } catch {
      return; // What it depends on cannot be told: not kept.
    }
    if (stamps === undefined || lastChange(stamps) > began - SETTLE_MS) return;
    const { script, styles, files } = built;
    const header: Header = {
      key,
      stamps,
      files: [...files],
      scriptBytes: Buffer.byteLength(script),
      stylesBytes: Buffer.byteLength(styles),
    };
    this.entries.writeEntry(file, header, [script, styles]);
  }
}

let shared: ViewCache | undefined;

/** The cache of this user's views (`mcp-dir-<uid>/views/`, see userCacheFolder). */
export function defaultViewCache(): ViewCache | undefined {
  const folder = userCacheFolder("views");
  if (folder === undefined) return undefined;
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
    versions = `${FORMAT} mcp-dir@${packageVersion("mcp-dir")} esbuild@${packageVersion("esbuild")} ${process.env.ESBUILD_BINARY_PATH ?? ""}`;
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
