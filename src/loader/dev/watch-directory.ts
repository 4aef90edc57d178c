import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { basename, join, sep } from "node:path";
import { watch } from "chokidar";
import { isEditorTempFile } from "../folders.js";
import { EMPTY, fingerprint, GONE } from "./file-fingerprint.js";

export interface WatchOptions {
  /** A batch is handed over once no file system event came for this long. Default 15 ms. */
  quietMs?: number;
  onError?: (error: Error) => void;
  /**
   * When what is served was read (`Date.now()` before the load): the files
   * changed since are handed over once chokidar watches, before `ready`, as
   * chokidar reports no save made before it watched.
   */
  changedSince?: number;
}

export interface DirectoryWatcher {
  /** Resolves when the initial scan is done and every later save will be seen. */
  readonly ready: Promise<void>;
  /**
   * Watches these files outside the directory (absolute paths) too, from
   * now on; with `changedSince`, hands over those changed since then (see
   * WatchOptions), and resolves once their batch is done.
   */
  watchAlso(files: readonly string[], changedSince?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * chokidar reports a path's change at most once per 50 ms and drops the rest
 * (no trailing event): each file handed over is looked at again this long
 * after, and handed over anew if it changed since.
 */
const RECHECK_MS = 60;
/** A burst of writes is waited out, but no longer than this after its first event. */
const MAX_WAIT_MS = 250;
/**
 * chokidar reads a new folder, then watches it: a file written or deleted in
 * between makes no event, ever. A new folder is read again this long after it
 * appeared (when chokidar has reported what it read), and once more, for a
 * chokidar slowed down by a busy machine.
 */
const NEW_FOLDER_LOOKS_MS = [MAX_WAIT_MS, 1000];

/** Dependencies, hidden files (.git, editor swap files) and editors' temporary files are never watched. */
function ignored(path: string): boolean {
  return (
    path.split(sep).some((segment) => segment === "node_modules" || segment.startsWith(".")) ||
    isEditorTempFile(basename(path))
  );
}

/** The files under `folder` (links included, not followed), skipping what is `ignored`; none once it is gone. */
async function filesIn(folder: string, isIgnored: (path: string) => boolean): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (isIgnored(path)) continue;
    if (entry.isDirectory()) files.push(...(await filesIn(path, isIgnored)));
    else files.push(path);
  }
  return files;
}

/**
 * Watches a server directory and hands over changed paths (absolute) in
 * batches: a burst of events (an editor writes a file several times, a rename
 * is an unlink and an add) becomes one batch once the directory is quiet, and
 * one batch runs at a time; events during a run fold into the next.
 *
 * chokidar's `atomic` option is off: it holds every unlink back 100 ms, which
 * would split a rename into two batches; the quiet period does its work here
 * (a delete and re-create by an editor is one batch, seen as a change).
 *
 * Symbolic links are not followed: a link is reported as a path of its own,
 * and a change where a link leads is reported at its real path (a link the
 * loader follows stays inside the directory, which is watched whole). Which
 * of these paths load is the loader's scan's to say, never the watcher's.
 */
export function watchDirectory(
  root: string,
  onBatch: (paths: string[]) => Promise<void>,
  options: WatchOptions = {},
): DirectoryWatcher {
  const quietMs = options.quietMs ?? 15;
  const onError = (error: unknown) => options.onError?.(error as Error);
  const pending = new Set<string>();
  let firstEventAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  let attempt = 0;
  /** Told when a run ends with nothing pending. */
  const idleWaiters = new Set<() => void>();
  const wakeIdle = () => {
    for (const wake of idleWaiters) wake();
    idleWaiters.clear();
  };
  /** Files handed over recently, with what they held then, to look at again. */
  const recent = new Map<string, string>();
  let recheckTimer: NodeJS.Timeout | undefined;

  const schedule = (delay: number) => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, delay);
  };
  /** Files outside the root watched besides it (helpers its files import). */
  const outside = new Set<string>();
  /** What the watcher leaves out: under the root, by `ignored`; outside it, all but `outside`. */
  const isIgnored = (path: string) =>
    path === root || path.startsWith(`${root}${sep}`)
      ? ignored(path.slice(root.length))
      : !outside.has(path);
  /**
   * Folders that appeared lately, with what is known of each path in them:
   * reported there or gone (by chokidar, or by a look below), or only seen
   * there when the folder appeared (a reload's scan may have loaded it).
   */
  const newFolders = new Map<string, Map<string, "there" | "gone" | "seen">>();
  const folderTimers = new Set<NodeJS.Timeout>();
  const eventFor = (path: string, isThere: boolean) => {
    if (pending.size === 0) firstEventAt = performance.now();
    pending.add(path);
    for (const [folder, known] of newFolders) {
      if (path.startsWith(`${folder}${sep}`)) known.set(path, isThere ? "there" : "gone");
    }
    if (!running) schedule(quietMs);
  };

  /**
   * Hands over what chokidar has not reported in a new folder (see
   * NEW_FOLDER_LOOKS_MS): a file there that it did not report there, and a
   * file gone that it reported, or that was there when the folder appeared.
   */
  const lookIntoNewFolder = async (folder: string, last: boolean) => {
    const known = newFolders.get(folder);
    if (known === undefined || closed) return;
    if (last) newFolders.delete(folder);
    const present = new Set(await filesIn(folder, isIgnored));
    if (closed) return;
    for (const path of present) {
      if (known.get(path) !== "there") eventFor(path, true);
    }
    for (const [path, state] of known) {
      if (state !== "gone" && !present.has(path)) eventFor(path, false);
    }
  };
  const folderAdded = (folder: string) => {
    if (closed || newFolders.has(folder)) return;
    const known = new Map<string, "there" | "gone" | "seen">();
    newFolders.set(folder, known);
    void filesIn(folder, isIgnored)
      .then((files) => {
        for (const path of files) if (!known.has(path)) known.set(path, "seen");
      })
      .catch(onError);
    NEW_FOLDER_LOOKS_MS.forEach((delay, index) => {
      const timer = setTimeout(() => {
        folderTimers.delete(timer);
        void lookIntoNewFolder(folder, index === NEW_FOLDER_LOOKS_MS.length - 1).catch(onError);
      }, delay);
      folderTimers.add(timer);
    });
  };

  /**
   * chokidar watches a file it is given a moment later, and a save in
   * between makes no event: each file is looked at again as a new folder
   * is (NEW_FOLDER_LOOKS_MS), and handed over if it changed since it was
   * given. Resolves once what they held then is read.
   */
  const lookAgainAt = async (files: readonly string[]): Promise<void> => {
    const before = await Promise.all(files.map(fingerprint));
    if (closed) return;
    for (const delay of NEW_FOLDER_LOOKS_MS) {
      const timer = setTimeout(() => {
        folderTimers.delete(timer);
        void Promise.all(files.map(fingerprint))
          .then((now) => {
            if (closed) return;
            for (const [index, path] of files.entries()) {
              if (now[index] !== before[index]) eventFor(path, now[index] !== GONE);
            }
          })
          .catch(onError);
      }, delay);
      folderTimers.add(timer);
    }
  };

  const recheck = async () => {
    recheckTimer = undefined;
    const paths = [...recent];
    recent.clear();
    const now = await Promise.all(paths.map(([path]) => fingerprint(path)));
    for (const [index, [path, before]] of paths.entries()) {
      if (now[index] !== before && !pending.has(path)) eventFor(path, now[index] !== GONE);
    }
  };

  const run = async () => {
    timer = undefined;
    if (running || pending.size === 0 || closed) return;
    const mine = ++attempt;
    const batch = [...pending].sort();
    const seen = await Promise.all(batch.map(fingerprint));
    // An event came while we looked (the batch is due after it), or a newer run took over.
    if (mine !== attempt || timer || running || closed) return;
    // An empty file is most likely being written (truncated, not yet filled): wait for it.
    if (seen.includes(EMPTY) && performance.now() - firstEventAt < MAX_WAIT_MS) {
      schedule(quietMs);
      return;
    }
    pending.clear();
    for (const path of batch) recent.delete(path);
    const handedOverAt = performance.now();
    running = (async () => {
      await onBatch(batch);
      for (const [index, path] of batch.entries()) recent.set(path, seen[index] ?? GONE);
      if (recheckTimer) clearTimeout(recheckTimer);
      if (!closed) {
        const delay = Math.max(0, handedOverAt + RECHECK_MS - performance.now());
        recheckTimer = setTimeout(() => void recheck().catch(onError), delay);
      }
    })().catch(onError);
    await running;
    running = undefined;
    if (pending.size > 0) schedule(quietMs);
    else wakeIdle();
  };

  /**
   * Hands over those of `files` changed since `since` and waits for their
   * batch. A file's times come from a clock that may lag Date.now() by a
   * tick, never lead it: one written before `since` never counts as changed.
   */
  const catchUp = async (files: readonly string[], since: number) => {
    const changed = await Promise.all(
      files.map((path) =>
        lstat(path).then(
          (s) => Math.floor(s.ctimeMs) > since,
          () => false,
        ),
      ),
    );
    for (const [index, path] of files.entries()) if (changed[index]) eventFor(path, true);
    if (pending.size > 0 || running) await new Promise<void>((resolve) => idleWaiters.add(resolve));
  };

  const watcher = watch(root, {
    ignoreInitial: true,
    atomic: false,
    followSymlinks: false,
    ignored: isIgnored,
  });
  for (const event of ["add", "change"] as const) watcher.on(event, (path) => eventFor(path, true));
  watcher.on("unlink", (path) => eventFor(path, false));
  watcher.on("addDir", folderAdded);
  // Every write shows as a raw event, even those chokidar folds away: wait a burst out.
  watcher.on("raw", (_event: string, name: unknown) => {
    if (pending.size === 0 || running || (typeof name === "string" && ignored(name))) return;
    if (performance.now() - firstEventAt < MAX_WAIT_MS) schedule(quietMs);
  });
  watcher.on("error", onError);
  const { changedSince } = options;
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve())).then(() =>
    changedSince === undefined || closed
      ? undefined
      : filesIn(root, isIgnored).then((files) => catchUp(files, changedSince)),
  );

  return {
    ready,
    async watchAlso(files, since) {
      const added = files.filter((file) => !outside.has(file));
      if (added.length === 0 || closed) return;
      for (const file of added) outside.add(file);
      watcher.add(added);
      // The times are read after the contents: a save between the two is seen by one of them.
      await lookAgainAt(added);
      if (since !== undefined) await catchUp(added, since);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (recheckTimer) clearTimeout(recheckTimer);
      for (const folderTimer of folderTimers) clearTimeout(folderTimer);
      await watcher.close();
      await running;
      wakeIdle();
    },
  };
}
