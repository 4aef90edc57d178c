import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What mcp-dir uses of tsx's FileCache: the Map of its transforms, which it also keeps on disk. */
interface TsxFileCache {
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
