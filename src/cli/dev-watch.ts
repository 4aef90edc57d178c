import { relative, sep } from "node:path";
import type { McpServer } from "../index.js";
import {
  type DirectoryWatcher,
  HotReloader,
  type ReloadOutcome,
  watchDirectory,
} from "../loader/dev/index.js";
import {
  formatProblem,
  formatWarning,
  type LoadProblem,
  type ReloadableModules,
  type ScanPatterns,
} from "../loader/index.js";
import { countSummary } from "./load-report.js";
import { divertStdout, printError } from "./stdout.js";

/**
 * `mcp-dir dev`: every save is applied in place. The terminal gets one line
 * per reloaded or removed file (with how long the reload took) and every
 * problem with its location; clients get list_changed and resources/updated
 * from the registry, and each problem as a log notification at level error.
 * `verbose` adds what changed on disk and what clients were told. `patterns`
 * (the config file's include and exclude) say which files load. `onReload`
 * hears each reload's outcome and the files failing after it (the dev UI).
 */
export async function startWatching(
  server: McpServer,
  root: string,
  importer: ReloadableModules,
  patterns: ScanPatterns,
  verbose: boolean,
  onReload?: (outcome: ReloadOutcome, failing: readonly string[]) => void,
): Promise<DirectoryWatcher> {
  const reloader = new HotReloader(root, server.registry, importer, patterns);
  // Serve what the initial load left out (a name collision) and remember what failed.
  await authorCode(() => reloader.start());
  const watcher = watchDirectory(
    root,
    async (paths) => {
      if (verbose) {
        const changed = paths.map((path) => relative(root, path).split(sep).join("/"));
        await printError(`mcp-dir dev: changed: ${changed.join(", ")}`);
      }
      const wasFailing = new Set(reloader.failingFiles);
      const outcome = await authorCode(() => reloader.reload(paths));
      await report(server, outcome, wasFailing, verbose);
      onReload?.(outcome, reloader.failingFiles);
    },
    { onError: (error) => void printError(`mcp-dir dev: watching failed: ${error.message}`) },
  );
  await watcher.ready;
  await printError(`mcp-dir dev: watching ${root} for changes`);
  return watcher;
}

/** Runs a (re)load with author code's stdout output sent to stderr. */
async function authorCode<T>(load: () => Promise<T>): Promise<T> {
  const restoreStdout = divertStdout();
  try {
    return await load();
  } finally {
    restoreStdout();
  }
}

async function report(
  server: McpServer,
  outcome: ReloadOutcome,
  wasFailing: ReadonlySet<string>,
  verbose: boolean,
): Promise<void> {
  const ms = `${Math.round(outcome.ms)} ms`;
  for (const file of outcome.applied) {
    const fixed = wasFailing.has(file) ? " (fixed)" : "";
    await printError(`mcp-dir dev: reloaded ${file}${fixed} in ${ms}`);
  }
  for (const file of outcome.removed) await printError(`mcp-dir dev: removed ${file}`);
  for (const warning of outcome.warnings) await printError(`warning: ${formatWarning(warning)}`);
  const byFile = new Map<string, LoadProblem[]>();
  for (const problem of outcome.problems) {
    byFile.set(problem.file, [...(byFile.get(problem.file) ?? []), problem]);
  }
  const served = new Set(server.registry.sources());
  for (const [file, problems] of byFile) {
    for (const problem of problems) {
      const message = formatProblem(problem);
      await printError(`error: ${message}`);
      server.log("error", { file, message }, "mcp-dir");
    }
    await printError(
      served.has(file)
        ? `  (the last good version of ${file} stays in service)`
        : `  (${file} is not served until it loads)`,
    );
  }
  if (outcome.configChanged) {
    await printError("mcp-dir dev: the config file changed; restart mcp-dir dev to apply it");
  }
  if (!verbose) return;
  const change = outcome.change;
  if (change) {
    const kinds = (["tools", "prompts", "resources"] as const).filter((kind) => change[kind]);
    await printError(
      `mcp-dir dev: now ${countSummary(server)}; list_changed: ${kinds.join(", ") || "none"}; updated: ${change.updatedUris.join(", ") || "none"}`,
    );
  } else if (outcome.applied.length + outcome.removed.length + outcome.problems.length === 0) {
    await printError("mcp-dir dev: no definition file is affected");
  }
}
