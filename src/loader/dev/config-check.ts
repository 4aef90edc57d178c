import { loadConfig } from "../config.js";
import { CONFIG_FILES } from "../config-files.js";
import type { ModuleImporter } from "../importer.js";
import type { LoadProblem, LoadWarning } from "../problems.js";

/**
 * What the directory's config file holds after a save, read as a start reads
 * it: whether a restart would take it. Nothing of it is applied.
 */
export interface ConfigCheck {
  /** The config files among those saved (or that import a saved file), relative to the directory. */
  readonly saved: readonly string[];
  /** The config file the directory has now; undefined when it has none (it was removed). */
  readonly file: string | undefined;
  /** What a start would refuse: `mcp-dir serve` would not start, `dev` would start without it. */
  readonly problems: readonly LoadProblem[];
  readonly warnings: readonly LoadWarning[];
}

/** Whether `file` (relative to the server directory, "/" separators) is a config file. */
export function isConfigFile(file: string): boolean {
  return (CONFIG_FILES as readonly string[]).includes(file);
}

/**
 * Reads the config file of `root` through the running importer: the saved
 * file was dropped from it, so the file is imported afresh while the helpers
 * it shares with the served files stay as they are. The server is not touched.
 */
export async function checkConfig(
  root: string,
  importer: ModuleImporter,
  saved: readonly string[],
): Promise<ConfigCheck> {
  const { config, problems, warnings } = await loadConfig(root, importer);
  return { saved, file: problems[0]?.file ?? config.file, problems, warnings };
}
