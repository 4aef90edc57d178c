import type { McpServer } from "../index.js";
import type { ReloadOutcome, ServerWatcher } from "../loader/dev/index.js";
import { formatProblem, formatWarning, problemsByFile } from "../loader/index.js";
import { configChangeLines } from "./config-change-report.js";
import { countSummary } from "./load-report.js";
import { divertStdout, printError } from "./stdout.js";

/**
 * `mcp-dir dev`: every save is applied in place (`watchServer`, which also
 * tells clients of each problem). The terminal gets one line per reloaded or
 * removed file (with how long the reload took) and every problem with its
 * location; `verbose` adds what changed on disk and what clients were told.
 * `onReload` hears each reload's outcome and the files failing after it (the dev UI).
 */
export async function startWatching(
  server: McpServer,
  root: string,
  verbose: boolean,
  onReload?: (outcome: ReloadOutcome, failing: readonly string[]) => void,
): Promise<ServerWatcher> {
  const { watchServer } = await import("../loader/dev/watch-server.js");
  const watcher: ServerWatcher = await watchServer(server, root, {
    runAuthorCode: authorCode,
    ...(verbose && {
      onChange: (paths) => printError(`mcp-dir dev: changed: ${paths.join(", ")}`),
    }),
    onReload: async (outcome) => {
      await report(server, outcome, verbose);
      onReload?.(outcome, [...new Set(watcher.problems.map((problem) => problem.file))]);
    },
    onError: (error) => void printError(`mcp-dir dev: watching failed: ${error.message}`),
  });
  // The first load's problems are printed already: say what a broken middleware holds back.
  for (const file of watcher.standingIn) await printError(refusedUntilLoaded(file));
  await printError(`mcp-dir dev: watching ${root} for changes`);
  return watcher;
}

const refusedUntilLoaded = (file: string) => `  (nothing ${file} wraps runs until it loads)`;

/** Runs a (re)load with author code's stdout output sent to stderr. */
async function authorCode<T>(load: () => Promise<T>): Promise<T> {
  const restoreStdout = divertStdout();
  try {
    return await load();
  } finally {
    restoreStdout();
  }
}

async function report(server: McpServer, outcome: ReloadOutcome, verbose: boolean): Promise<void> {
  const ms = `${Math.round(outcome.ms)} ms`;
  for (const file of outcome.applied) {
    const fixed = outcome.fixed.includes(file) ? " (fixed)" : "";
    await printError(`mcp-dir dev: reloaded ${file}${fixed} in ${ms}`);
  }
  for (const file of outcome.removed) await printError(`mcp-dir dev: removed ${file}`);
  for (const warning of outcome.warnings) await printError(`warning: ${formatWarning(warning)}`);
  const byFile = problemsByFile(outcome.problems);
  const served = new Set(server.registry.sources());
  const standing = new Set(outcome.standing);
  for (const [file, problems] of byFile) {
    for (const problem of problems) await printError(`error: ${formatProblem(problem)}`);
    await printError(
      standing.has(file)
        ? refusedUntilLoaded(file)
        : served.has(file)
          ? `  (the last good version of ${file} stays in service)`
          : `  (${file} is not served until it loads)`,
    );
  }
  if (outcome.config) for (const line of configChangeLines(outcome.config)) await printError(line);
  if (!verbose) return;
  const change = outcome.change;
  if (change) {
    const kinds = (["tools", "prompts", "resources"] as const).filter((kind) => change[kind]);
    // A template's subscribers of any URI it serves were told too.
    const updated = [
      ...change.updatedUris,
      ...(change.updatedTemplates ?? []).map((template) => template.template),
    ];
    await printError(
      `mcp-dir dev: now ${countSummary(server)}; list_changed: ${kinds.join(", ") || "none"}; updated: ${updated.join(", ") || "none"}`,
    );
  } else if (outcome.applied.length + outcome.removed.length + outcome.problems.length === 0) {
    await printError("mcp-dir dev: no definition file is affected");
  }
}
