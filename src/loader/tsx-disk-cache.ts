import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { oweWrite, paid } from "./owed-writes.js";

/** What mcp-dir uses of tsx's FileCache: the Map of its transforms, which it also keeps on disk. */
interface TsxFileCache extends Map<string, unknown> {
  readonly cacheDirectory: string;
  /** Once true, tsx neither makes the folder nor schedules the expiry again. */
  initialized: boolean;
  expireDiskCache(): Promise<void>;
  removeOldCacheDirectory?(): Promise<void>;
}

/**
 * tsx names each file of its disk cache after a period of 1e8 ms (some 28
 * hours) and deletes the files seven periods old: deleting them once a period
 * keeps that bound.
 */
const PERIOD_MS = 1e8;
/** Written after a complete expiry; not a name tsx deletes (those are `<period>-<hash>`). */
const STAMP = ".mcp-dir-expired";

/**
 * tsx keeps its transforms on disk in one folder per user, shared by every
 * project that uses tsx, and every process that writes a transform there
 * reads the whole folder to delete the expired files. Measured here, with
 * 58,000 files in it: some 180 ms of CPU for a start that transformed a single
 * file, and the same again in every process a test suite spawns.
 *
 * Given tsx's FileCache as it keeps its first transform (before it schedules
 * that reading), this has the expiry run once a period per folder instead:
 * in the first process that writes a transform once the period is over,
 * scheduled as tsx schedules it, and stamped when it is complete. Anything
 * else (no disk cache, a tsx whose cache looks different) is left to tsx.
 */
export function expireOncePerPeriod(cache: unknown): void {
  if (!isTsxFileCache(cache) || cache.initialized) return;
  try {
    mkdirSync(cache.cacheDirectory, { recursive: true });
  } catch {
    return; // tsx meets the error again, and handles it.
  }
  cache.initialized = true;
  const stamp = join(cache.cacheDirectory, STAMP);
  if (lastExpiry(stamp) > Date.now() - PERIOD_MS) return;
  setImmediate(() => {
    cache.removeOldCacheDirectory?.().catch(() => {});
    cache
      .expireDiskCache()
      .then(() => writeFileSync(stamp, ""))
      .catch(() => {});
  }).unref();
}

/** When the folder's files were last expired: the stamp's time, or never. */
function lastExpiry(stamp: string): number {
  try {
    return statSync(stamp).mtimeMs;
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
}

function isTsxFileCache(cache: unknown): cache is TsxFileCache {
  const candidate = cache as Partial<TsxFileCache> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.cacheDirectory === "string" &&
    typeof candidate.initialized === "boolean" &&
    typeof candidate.expireDiskCache === "function"
  );
}

/**
 * tsx writes each new transform to its disk cache as it makes it, through
 * fs.promises: an open, a write and a close, each a turn of the event loop
 * on the thread that loads the files. A process that exits as soon as it has
 * answered (the CLI's list, call, get, read and check) ends before the write:
 * the file is left empty or never made, and the next process transforms the
 * file again, starting esbuild (some 100 ms) for it. Given tsx's FileCache
 * as it keeps `first`, its first transform (which tsx goes on to write), this
 * has `first` written again at exit, and each transform after it written
 * when the loop is otherwise idle instead, a few at a time, and whatever is
 * left when the process exits written then (see TransformWrites).
 */
export function writeBeforeExit(cache: unknown, first: { key: string; value: unknown }): void {
  if (!isTsxFileCache(cache)) return;
  const keep = Map.prototype.set;
  const writes = new TransformWrites(cache.cacheDirectory);
  writtenBy.set(cache, writes);
  writes.addAgainAtExit(first.key, first.value);
  cache.set = function (this: TsxFileCache, key: string, value: unknown) {
    keep.call(this, key, value);
    if (value) writes.add(key, value);
    return this;
  };
}

/** Each cache's writes still to make, which a read of the cache finds first. */
const writtenBy = new WeakMap<object, TransformWrites>();

/**
 * tsx looks for a transform it has not kept in memory in its disk cache,
 * trying the file names of eight periods, each a failed read when the file
 * is not there: on a load of a thousand new files (a fresh container, say),
 * 8,000 failed reads, measured at 130 to 270 ms of the start. Given tsx's
 * FileCache, once a load is known to be mostly new files (`newFiles` of
 * them), this lists the folder once and lets tsx read only for the
 * transforms it holds (and those it writes from then on), when the listing
 * costs less than the reads it saves (see LISTING_PAYS_PER_FILE); it says
 * whether it did. A transform another process writes later is made again
 * rather than read: the same outcome.
 */
export function readOnlyWhatIsOnDisk(cache: unknown, newFiles: number): boolean {
  if (!isTsxFileCache(cache)) return false;
  let names: string[];
  try {
    if (statSync(cache.cacheDirectory).size > newFiles * LISTING_PAYS_PER_FILE) return false;
    names = readdirSync(cache.cacheDirectory);
  } catch {
    return false;
  }
  // tsx's files are named `<period>-<key>`.
  const onDisk = new Set(names.map((name) => name.slice(name.indexOf("-") + 1)));
  const { get, set } = cache;
  const inMemory = Map.prototype.get;
  const writes = writtenBy.get(cache);
  writes?.holdUntilQuiet();
  cache.get = function (this: TsxFileCache, key: string) {
    return (
      inMemory.call(this, key) ??
      writes?.get(key) ??
      (onDisk.has(key) ? get.call(this, key) : undefined)
    );
  };
  cache.set = function (this: TsxFileCache, key: string, value: unknown) {
    onDisk.add(key);
    return set.call(this, key, value);
  };
  return true;
}

/**
 * The size of tsx's folder (in bytes, as stat gives it) up to which listing
 * it costs less than the failed reads it saves, for each new file. tsx's
 * folder is shared by every project on the machine, and a test suite's runs
 * leave tens of thousands of files in it. Measured here: a failed read 15 µs,
 * eight a new file (120 µs); a listing 1.25 µs an entry; ext4 gives a folder
 * some 80 bytes an entry (tmpfs 20, so there the listing is made sooner than
 * it pays, by at most four times). Listing 93,000 entries took 116 ms.
 */
export const LISTING_PAYS_PER_FILE = (120 / 1.25) * 80;

/** How many transforms are written in one turn of the event loop (each a synchronous write, 50 µs to 1 ms). */
const WRITES_PER_TURN = 16;
/**
 * How long after the last new transform the writes of a load of mostly new
 * files begin: written a few a turn as they came, they shared the turns of
 * a load of a thousand new files, and took 0.9 s of that cold start,
 * measured in a container (a write near 1 ms there).
 */
const QUIET_MS = 500;

/**
 * Transforms to write to tsx's disk cache as tsx writes them (a file named
 * `<period>-<key>` holding the result as JSON), a few a turn of the event
 * loop after the one that made them (during a load of mostly new files,
 * once no new one has come for QUIET_MS), and at exit for those still
 * waiting.
 */
class TransformWrites {
  /** The transforms not yet on disk, by tsx's key. */
  private readonly waiting = new Map<string, unknown>();
  /**
   * A transform tsx is writing itself, written again at exit: were the
   * process to end between tsx's open (which empties the file) and its write,
   * the file would be left empty.
   */
  private readonly again = new Map<string, unknown>();
  private quiet: NodeJS.Timeout | undefined;
  /** True from holdUntilQuiet() until no new transform has come for QUIET_MS. */
  private holding = false;
  private writing = false;
  private readonly writeAll = () => {
    this.write(this.waiting, this.waiting.size);
    this.write(this.again, this.again.size);
  };

  constructor(private readonly folder: string) {}

  /** A transform still to be written, if `key` names one. */
  get(key: string): unknown {
    return this.waiting.get(key) ?? this.again.get(key);
  }

  add(key: string, value: unknown): void {
    this.waiting.set(key, value);
    this.writeAtExit();
    if (this.holding) {
      clearTimeout(this.quiet);
      this.quiet = setTimeout(this.endHold, QUIET_MS).unref();
      return;
    }
    if (this.writing) return;
    this.writing = true;
    setImmediate(this.writeSome);
  }

  /** A load of mostly new files begins: the writes wait until its transforms stop coming. */
  holdUntilQuiet(): void {
    this.holding = true;
  }

  private readonly endHold = () => {
    this.holding = false;
    if (this.writing) return;
    this.writing = true;
    this.writeSome();
  };

  addAgainAtExit(key: string, value: unknown): void {
    this.again.set(key, value);
    this.writeAtExit();
  }

  private writeAtExit(): void {
    oweWrite(this.writeAll);
  }

  private readonly writeSome = () => {
    this.write(this.waiting, WRITES_PER_TURN);
    if (this.waiting.size > 0) {
      setImmediate(this.writeSome);
      return;
    }
    this.writing = false;
    if (this.again.size === 0) paid(this.writeAll);
  };

  private write(transforms: Map<string, unknown>, count: number): void {
    const period = Math.floor(Date.now() / PERIOD_MS);
    let written = 0;
    for (const [key, value] of transforms) {
      if (written++ === count) return;
      transforms.delete(key);
      try {
        writeFileSync(join(this.folder, `${period}-${key}`), JSON.stringify(value));
      } catch {
        // A cache: a transform not written is made again by the next process.
      }
    }
  }
}
