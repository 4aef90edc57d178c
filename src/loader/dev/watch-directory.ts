import { sep } from "node:path";
import { watch } from "chokidar";

export interface WatchOptions {
  /** A batch is handed over once no event came for this long. Default 15 ms. */
  quietMs?: number;
  onError?: (error: Error) => void;
}

export interface DirectoryWatcher {
  /** Resolves when the initial scan is done and every later save will be seen. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/** Dependencies and hidden files (.git, editor swap files) are never watched. */
function ignored(path: string): boolean {
  return path.split(sep).some((segment) => segment === "node_modules" || segment.startsWith("."));
}

/**
 * Watches a server directory and hands over changed paths (absolute) in
 * batches: a burst of events (an editor writes a file several times) becomes
 * one batch, and one batch runs at a time; events during a run fold into the next.
 */
export function watchDirectory(
  root: string,
  onBatch: (paths: string[]) => Promise<void>,
  options: WatchOptions = {},
): DirectoryWatcher {
  const quietMs = options.quietMs ?? 15;
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const run = async () => {
    timer = undefined;
    if (running || pending.size === 0) return;
    const batch = [...pending].sort();
    pending.clear();
    running = onBatch(batch).catch((error: unknown) => options.onError?.(error as Error));
    await running;
    running = undefined;
    if (pending.size > 0) schedule(0);
  };
  const schedule = (delay: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, delay);
  };

  const watcher = watch(root, {
    ignoreInitial: true,
    ignored: (path) => ignored(path.slice(root.length)),
  });
  for (const event of ["add", "change", "unlink"] as const) {
    watcher.on(event, (path: string) => {
      pending.add(path);
      if (!running) schedule(quietMs);
    });
  }
  watcher.on("error", (error) => options.onError?.(error as Error));
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));

  return {
    ready,
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
