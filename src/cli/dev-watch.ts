import {
  type DirectoryWatcher,
  formatProblem,
  formatWarning,
  HotReloader,
  type McpServer,
  type ReloadableModules,
  type ReloadOutcome,
  watchDirectory,
} from "../index.js";
import { countSummary } from "./load-report.js";
import { divertStdout, printError } from "./stdout.js";

/**
 * `mcp-dir dev`: every save is applied in place. The terminal gets one line
 * per reload (what, how long) and every problem with its location; clients get
 * list_changed and resources/updated from the registry, and each problem as a
 * log notification at level error.
 */
export async function startWatching(
  server: McpServer,
  root: string,
  importer: ReloadableModules,
  verbose: boolean,
): Promise<DirectoryWatcher> {
  const reloader = new HotReloader(root, server.registry, importer);
  const failing = new Set<string>();
  const watcher = watchDirectory(
    root,
    async (paths) => {
      if (verbose)
        await printError(`mcp-dir dev: saw ${paths.length} change(s): ${paths.join(", ")}`);
      const restoreStdout = divertStdout();
      let outcome: ReloadOutcome;
      try {
        outcome = await reloader.reload(paths);
      } finally {
        restoreStdout();
      }
      await report(server, outcome, failing, verbose);
    },
    { onError: (error) => void printError(`mcp-dir dev: watching failed: ${error.message}`) },
  );
  await watcher.ready;
  await printError(`mcp-dir dev: watching ${root} for changes`);
  return watcher;
}

async function report(
  server: McpServer,
  outcome: ReloadOutcome,
  failing: Set<string>,
  verbose: boolean,
): Promise<void> {
  const ms = `${Math.round(outcome.ms)} ms`;
  for (const file of outcome.applied) {
    const recovered = failing.delete(file) ? " (fixed)" : "";
    await printError(`mcp-dir dev: reloaded ${file}${recovered} in ${ms}`);
  }
  for (const file of outcome.removed) {
    failing.delete(file);
    await printError(`mcp-dir dev: removed ${file}`);
  }
  for (const warning of outcome.warnings) await printError(`warning: ${formatWarning(warning)}`);
  for (const problem of outcome.problems) {
    failing.add(problem.file);
    const message = formatProblem(problem);
    await printError(
      `error: ${message}\n  (the last good version of ${problem.file} stays in service)`,
    );
    server.log("error", { file: problem.file, message }, "mcp-dir");
  }
  if (outcome.configChanged) {
    await printError("mcp-dir dev: the config file changed; restart mcp-dir dev to apply it");
  }
  const change = outcome.change;
  if (verbose && change) {
    const kinds = (["tools", "prompts", "resources"] as const).filter((kind) => change[kind]);
    await printError(
      `mcp-dir dev: now ${countSummary(server)}; list_changed: ${kinds.join(", ") || "none"}; updated: ${change.updatedUris.join(", ") || "none"}`,
    );
  }
}
