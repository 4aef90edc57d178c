import { expireOncePerPeriod, readOnlyWhatIsOnDisk, writeBeforeExit } from "./tsx-disk-cache.js";

/**
 * mcp-dir's hold on tsx's transform cache (its FileCache: a Map in memory,
 * and files on disk), which tsx does not expose. It is the Map that receives
 * tsx's result in the same turn as a transform: watched for once, for that
 * turn only.
 *
 * In memory, tsx keeps every transform it makes for the life of the process.
 * `dev` transforms a file anew on each save, and nothing asks for the old
 * transform again: measured, about 3 kB a save of a 400-byte tool, never
 * freed (the heap after a full collection: 12.6 MiB at start, 19.1 MiB after
 * 2000 saves), and a file's size again and more for a larger one. So the Map
 * is emptied each time tsx transforms a file, and holds what tsx read from
 * its disk cache since (at most the files of one load). Emptying it changes
 * no outcome: what tsx looks for and does not find there, it reads from disk
 * or transforms again.
 *
 * On disk (tsx-disk-cache.ts): the expiry runs once a period, every
 * transform is written before the process exits, and a load of mostly new
 * files reads only what is there.
 */
export class TsxCache {
  private map: Map<unknown, unknown> | undefined;
  /** Set while Map.prototype.set is watched: puts the original back. */
  private stopWatching: (() => void) | undefined;
  private indexed = false;

  /** Called when most files of a load are new to tsx, `count` of them: see readOnlyWhatIsOnDisk. */
  expectNewFiles(count: number): void {
    if (this.indexed || this.map === undefined) return;
    this.indexed = readOnlyWhatIsOnDisk(this.map, count);
  }

  /** Called as tsx transforms a file, before tsx keeps the result (`banner`: what tsx's code starts with). */
  beforeKept(banner: string | undefined): void {
    if (this.map) {
      this.map.clear();
      return;
    }
    if (this.stopWatching) return;
    const set = Map.prototype.set;
    const found = (map: Map<unknown, unknown>, first: { key: string; value: unknown }) => {
      this.map = map;
      stopWatching();
      expireOncePerPeriod(map);
      writeBeforeExit(map, first);
    };
    const watched = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
      if (isTransformEntry(key, value, banner)) found(this, { key, value });
      return set.call(this, key, value);
    };
    const stopWatching = () => {
      if (Map.prototype.set === watched) Map.prototype.set = set;
      this.stopWatching = undefined;
    };
    Map.prototype.set = watched;
    this.stopWatching = stopWatching;
    // Found or not (the transform failed, say), the watch ends with the turn.
    queueMicrotask(stopWatching);
  }
}

/** tsx's entry: the hash of the code and options, and esbuild's result with tsx's banner first. */
function isTransformEntry(key: unknown, value: unknown, banner: string | undefined): key is string {
  if (typeof key !== "string" || !/^[0-9a-f]{40}$/.test(key)) return false;
  const code = (value as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith(banner ?? "");
}
