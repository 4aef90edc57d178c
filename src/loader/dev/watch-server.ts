import { relative, sep } from "node:path";
import type { LoggingLevel } from "../../protocol/types.js";
import type { McpServer } from "../../server/server.js";
import { loadConfig } from "../config.js";
import { createImporter } from "../importer.js";
import { resolveServerDir } from "../load-file.js";
import { type DirectorySource, loadedFrom } from "../load-server.js";
import { formatProblem, type LoadProblem, problemsByFile } from "../problems.js";
import { HotReloader, type ReloadOutcome } from "./hot-reload.js";

export interface WatchServerOptions {
  /** Told of each batch of saved paths (relative to the directory) before it is applied. */
  onChange?: (paths: readonly string[]) => void | Promise<void>;
  /** Told what each reload did: files applied and removed, problems, what clients were told. */
  onReload?: (outcome: ReloadOutcome) => void | Promise<void>;
  /** Watching itself failed (the file system; a file's own problems come in outcomes). */
  onError?: (error: Error) => void;
  /**
   * Runs each load of the directory's code (the first, and every reload):
   * `mcp-dir dev` sends author code's stdout to stderr meanwhile.
   */
  runAuthorCode?: <T>(load: () => Promise<T>) => Promise<T>;
}

export interface ServerWatcher {
  /** The directory watched, absolute. */
  readonly dir: string;
  /** Every problem of the files that fail to load now: each keeps its last good version in service. */
  readonly problems: readonly LoadProblem[];
  /**
   * `_middleware` files that fail with no good version to keep: what each
   * wraps refuses every call (with the reason) until it loads.
   */
  readonly standingIn: readonly string[];
  /**
   * What the next reload did, once it is done. Ask before you save, so that
   * the reload cannot come before the question.
   */
  nextReload(): Promise<ReloadOutcome>;
  /** Stops watching; what is served stays served. */
  close(): Promise<void>;
}

/** The key of a failing file's notice on the server. */
const noticeKey = (file: string) => `mcp-dir:load:${file}`;
const PROBLEM_LEVEL: LoggingLevel = "error";

/** A directory's code and rules: those of the load that made the server, else read anew. */
async function sourceOf(
  server: McpServer,
  dir: string,
): Promise<DirectorySource & { fresh: boolean }> {
  const root = await resolveServerDir(dir);
  const loaded = loadedFrom(server);
  if (loaded && loaded.root === root) return { ...loaded, fresh: false };
  const loadedAt = Date.now();
  const importer = createImporter(root);
  const { config, problems } = await loadConfig(root, importer);
  if (problems.length > 0) {
    throw new Error(
      `watchServer: the config file of ${dir} has problems; fix them first:\n${problems.map((p) => `  ${formatProblem(p)}`).join("\n")}`,
    );
  }
  return { root, importer, patterns: config, loadedAt, fresh: true };
}

/**
 * Keeps `server` serving what directory `dir` holds, as `mcp-dir dev` does: a
 * saved, added, renamed or deleted file (or a helper they import) is applied
 * in place, in one registry update per batch of saves, and clients are told
 * what changed (list_changed, resources/updated). A file that fails to load
 * keeps its last good definitions in service; every client is told of it
 * (`server.setNotice`): 2025 sessions at once (or once initialized, for
 * those that connect later), 2026-07-28 requests that ask for log messages
 * while it lasts. The directory's config file is not reloaded (its include
 * and exclude say what loads): a save of it is read as a start would read
 * it, and the outcome says what a restart would meet (`config`).
 *
 * `server` is usually the one `loadServer(dir)` made, whose load it carries
 * on; any other server is given the directory's files now. Every kind is
 * announced, so a folder made later reaches clients already connected.
 * Resolves once the watcher sees every later save, and has applied those
 * made while the directory loaded (after the load read a file, before
 * anything watched it).
 */
export async function watchServer(
  server: McpServer,
  dir: string,
  options: WatchServerOptions = {},
): Promise<ServerWatcher> {
  const run = options.runAuthorCode ?? (<T>(load: () => Promise<T>) => load());
  const { root, importer, patterns, loadedAt, fresh } = await sourceOf(server, dir);
  // Views are resources, but need the MCP Apps extension offered in a session's
  // initialize, as tools that run as tasks need tasks.
  server.announceKinds(["tools", "prompts", "resources", "views", "tasks"]);
  const reloader = new HotReloader(root, server.registry, importer, patterns);
  const noticed = new Set<string>();
  /** Tells clients of the problems just found, and withdraws those of files that load now. */
  const tell = (found: readonly LoadProblem[]) => {
    for (const [file, problems] of problemsByFile(found)) {
      server.setNotice(
        noticeKey(file),
        problems.map((problem) => ({
          level: PROBLEM_LEVEL,
          logger: "mcp-dir",
          data: { file, message: formatProblem(problem) },
        })),
      );
      noticed.add(file);
    }
    const failing = new Set(reloader.failingFiles);
    for (const file of noticed) {
      if (failing.has(file)) continue;
      server.setNotice(noticeKey(file), undefined);
      noticed.delete(file);
    }
  };

  // Modules that did not load the server know nothing of its files: every file loads anew.
  await run(() => reloader.start({ everyFile: fresh }));
  tell(reloader.problems);
  const waiting = new Set<{ resolve(outcome: ReloadOutcome): void; reject(error: Error): void }>();
  // chokidar loads only when something is watched: serving never pays for it.
  const { watchDirectory } = await import("./watch-directory.js");
  const watcher = watchDirectory(
    root,
    async (reported) => {
      // A file that holds what a reload took of it already is no change: no reload, no report.
      const paths = await reloader.changedAmong(reported);
      if (paths.length === 0) return;
      await options.onChange?.(paths.map((path) => relative(root, path).split(sep).join("/")));
      const reloadedAt = Date.now();
      const outcome = await run(() => reloader.reload(paths));
      // Not awaited: a helper saved since this reload read it makes the next batch, after this one.
      watcher
        .watchAlso(reloader.outsideHelpers, reloadedAt)
        .catch((error: Error) => options.onError?.(error));
      tell(outcome.problems);
      await options.onReload?.(outcome);
      for (const waiter of waiting) waiter.resolve(outcome);
      waiting.clear();
    },
    // A save made while the directory loaded, before anything watched, is applied now.
    { onError: (error) => options.onError?.(error), changedSince: loadedAt },
  );
  await watcher.ready;
  await watcher.watchAlso(reloader.outsideHelpers, loadedAt);
  let closed = false;

  return {
    dir: root,
    get problems() {
      return reloader.problems;
    },
    get standingIn() {
      return reloader.standingIn;
    },
    nextReload() {
      if (closed) return Promise.reject(new Error("The watcher was closed"));
      return new Promise((resolve, reject) => {
        waiting.add({ resolve, reject });
      });
    },
    async close() {
      closed = true;
      await watcher.close();
      for (const waiter of waiting) waiter.reject(new Error("The watcher was closed"));
      waiting.clear();
      for (const file of noticed) server.setNotice(noticeKey(file), undefined);
      noticed.clear();
    },
  };
}
