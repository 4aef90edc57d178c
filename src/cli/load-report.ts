import type { LoadDirectoryOptions, LoadedServer, McpServer, ServerOptions } from "../index.js";
import { formatProblem, formatWarning, type LoadProblem } from "../loader/problems.js";
import { divertStdout } from "./stdout.js";

/**
 * Loads a server directory while author code's stdout output goes to stderr.
 * The loader (and the server, zod, tsx behind it) is imported here, on the
 * first load: a command's --help, or a usage error, never pays for it.
 * Only a server that serves others (`replicas`: serve, dev) connects to the
 * Redis its configuration names; list, check, call... keep to this process.
 */
export async function loadQuietly(
  dir: string,
  overrides: Partial<ServerOptions> = {},
  options: LoadDirectoryOptions = {},
  { replicas = false } = {},
): Promise<LoadedServer> {
  const { loadServer } = await import("../loader/load-server.js");
  const restoreStdout = divertStdout();
  try {
    return await loadServer(
      dir,
      replicas ? overrides : { ...overrides, redis: undefined },
      options,
    );
  } finally {
    restoreStdout();
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** "3 tools, 2 prompts, 4 resources, 1 resource template, 1 view" */
export function countSummary(server: McpServer): string {
  const { registry } = server;
  const parts = [
    plural(registry.tools.length, "tool"),
    plural(registry.prompts.length, "prompt"),
    plural(registry.resources.length - registry.views.length, "resource"),
  ];
  if (registry.templates.length > 0) {
    parts.push(plural(registry.templates.length, "resource template"));
  }
  if (registry.views.length > 0) parts.push(plural(registry.views.length, "view"));
  return parts.join(", ");
}

/**
 * Prints every warning, then every problem (messages may span lines), then,
 * if there was a problem, a summary line starting with `who`. Returns whether
 * the directory can be served.
 */
export async function reportLoad(
  loaded: LoadedServer,
  dir: string,
  print: (line: string) => Promise<void>,
  who = "mcp-dir",
  afterFix = "run again",
): Promise<boolean> {
  for (const warning of loaded.load.warnings) await print(`warning: ${formatWarning(warning)}`);
  if (loaded.load.folders.length === 0) {
    await print(
      `warning: ${dir} has no tools/, prompts/, resources/ or views/ folder, so there is nothing to serve`,
    );
  }
  return reportProblems(loaded.problems, dir, print, who, afterFix);
}

/**
 * Prints every problem, then, if there was one, a summary line starting
 * with `who`. Returns whether there was none.
 */
export async function reportProblems(
  problems: readonly LoadProblem[],
  dir: string,
  print: (line: string) => Promise<void>,
  who = "mcp-dir",
  afterFix = "run again",
): Promise<boolean> {
  for (const problem of problems) await print(`error: ${formatProblem(problem)}`);
  const count = problems.length;
  if (count === 0) return true;
  await print(
    `${who}: ${plural(count, "problem")} in ${dir}; fix ${count === 1 ? "it" : "them"} and ${afterFix}`,
  );
  return false;
}
