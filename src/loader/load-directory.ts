import { resolve } from "node:path";
import type { SourceEntry } from "../registry/definition.js";
import { loadConfig, type ResolvedConfig } from "./config.js";
import { type DefinitionFolder, isCodeFile } from "./folders.js";
import { createImporter, type ModuleImporter } from "./importer.js";
import { isDirectory } from "./is-directory.js";
import { loadFile, resolveServerDir } from "./load-file.js";
import type { LoadProblem, LoadWarning } from "./problems.js";
import { scanDirectory } from "./scan.js";

export interface DirectoryLoad {
  /** The server directory, absolute. */
  readonly dir: string;
  readonly config: ResolvedConfig;
  /** The definition folders that exist (announced as capabilities even while empty). */
  readonly folders: DefinitionFolder[];
  /** Every file that loaded without a problem, in scan order, with its definitions. */
  readonly sources: Map<string, SourceEntry[]>;
  readonly problems: LoadProblem[];
  readonly warnings: LoadWarning[];
  /** What imported the directory's code (a reload imports through it again). */
  readonly importer: ModuleImporter;
}

export interface LoadDirectoryOptions {
  importer?: ModuleImporter;
  /** How long one file may take to load when no importer is given (default 5000 ms). */
  loadTimeoutMs?: number;
}

/**
 * Loads a whole server directory: the configuration file, then every file of
 * tools/, prompts/ and resources/, each validated. Files with problems are left
 * out of `sources`; every problem is collected, none stops the others.
 */
export async function loadDirectory(
  dir: string,
  options: LoadDirectoryOptions = {},
): Promise<DirectoryLoad> {
  if (!(await isDirectory(dir))) throw new Error(`${resolve(dir)} is not a directory`);
  const root = await resolveServerDir(dir);
  const importer =
    options.importer ??
    createImporter(
      root,
      options.loadTimeoutMs === undefined ? {} : { loadTimeoutMs: options.loadTimeoutMs },
    );
  const { config, problems, warnings } = await loadConfig(root, importer);
  const { folders, files, warnings: skippedLinks } = await scanDirectory(root, config);
  warnings.push(...skippedLinks);
  await importer.preload?.(files.filter(isCodeFile).map((file) => resolve(root, file)));
  const sources = new Map<string, SourceEntry[]>();
  for (const file of files) {
    const load = await loadFile(root, file, { importer });
    problems.push(...load.problems);
    warnings.push(...load.warnings);
    if (load.problems.length === 0) sources.set(file, load.entries);
  }
  return { dir: root, config, folders, sources, problems, warnings, importer };
}
