import { ReloadableModules } from "./reloadable-modules.js";

export type { ModuleNamespace } from "./reloadable-modules.js";

/** How the loader imports author code; `dev` keeps one to drop and re-import changed files. */
export interface ModuleImporter {
  import(absolutePath: string): Promise<Readonly<Record<string, unknown>>>;
  /** Loads files ahead of their import(), where loading many at once is cheaper than one by one. */
  preload?(absolutePaths: readonly string[]): Promise<void>;
  /** A file built rather than imported (a view), and what it was built from: `dev` builds it again when one changes. */
  recordInputs?(absolutePath: string, inputs: readonly string[]): void;
}

/**
 * Imports the files of the server directory `dir` with tsx (no build step).
 * A new importer sees every file of the directory afresh; packages load once
 * per process. See ReloadableModules for how.
 */
export function createImporter(
  dir: string,
  options: { loadTimeoutMs?: number } = {},
): ReloadableModules {
  const importer = new ReloadableModules(dir);
  if (options.loadTimeoutMs !== undefined) importer.loadTimeoutMs = options.loadTimeoutMs;
  return importer;
}
