import { stamp } from "./file-fingerprint.js";

/**
 * What each file held when a reload last took it (was handed it, or loaded
 * it), so that a report of a file holding the same again is not taken for a
 * change: chokidar may report one save twice, and a reload's scan loads a
 * file whose event comes later (one saved while the reload ran, one moved
 * into a new folder before chokidar watched it, which the watcher's look into
 * the folder reports). Paths are absolute.
 */
export class TakenFiles {
  private readonly stamps = new Map<string, string>();

  /**
   * Those of `paths` whose file changed since it was last taken, or that
   * were never taken; they are taken as they are now.
   */
  async takeChanged(paths: readonly string[]): Promise<string[]> {
    const now = await Promise.all(paths.map(stamp));
    const changed: string[] = [];
    for (const [index, path] of paths.entries()) {
      const held = now[index] as string;
      if (this.stamps.get(path) === held) continue;
      this.stamps.set(path, held);
      changed.push(path);
    }
    return changed;
  }

  /**
   * Notes what the files at `paths` hold now. Taken before they are read, so
   * that a save made while they load is a change still.
   */
  async take(paths: readonly string[]): Promise<void> {
    const now = await Promise.all(paths.map(stamp));
    for (const [index, path] of paths.entries()) this.stamps.set(path, now[index] as string);
  }
}
