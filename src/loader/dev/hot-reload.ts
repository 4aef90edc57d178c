import { stat } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import type { SourceEntry } from "../../registry/definition.js";
import { type Registry, type RegistryChange, RegistryError } from "../../registry/registry.js";
import { CONFIG_FILES } from "../config.js";
import { folderOf } from "../folders.js";
import { loadFile } from "../load-file.js";
import type { LoadProblem, LoadWarning } from "../problems.js";
import type { ReloadableModules } from "../reloadable-modules.js";
import { isSkipped } from "../scan.js";

/** What one reload did. Paths are relative to the server directory. */
export interface ReloadOutcome {
  /** Definition files whose new definitions are now served. */
  readonly applied: readonly string[];
  /** Definition files that are gone, with their definitions. */
  readonly removed: readonly string[];
  /** Files that failed: each keeps its last good definitions in service. */
  readonly problems: readonly LoadProblem[];
  readonly warnings: readonly LoadWarning[];
  /** What clients were told, when anything changed. */
  readonly change: RegistryChange | undefined;
  /** The config file changed: that takes a restart. */
  readonly configChanged: boolean;
  readonly ms: number;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * Applies saved files to a live registry: drops the changed modules and every
 * module that imports them, re-loads the definition files among them, and
 * makes one registry update. A file that fails is left out of the update, so
 * its last good definitions stay in service.
 */
export class HotReloader {
  constructor(
    private readonly root: string,
    private readonly registry: Registry,
    private readonly modules: ReloadableModules,
  ) {}

  private relative(path: string): string {
    return relative(this.root, path).split(sep).join("/");
  }

  async reload(paths: readonly string[]): Promise<ReloadOutcome> {
    const started = performance.now();
    const absolute = paths.map((path) => resolve(this.root, path));
    const dropped = this.modules.invalidate(absolute);
    const files = [...new Set([...absolute, ...dropped].map((path) => this.relative(path)))]
      .filter((file) => folderOf(file) !== undefined && !isSkipped(file))
      .sort();

    const updates = new Map<string, SourceEntry[] | null>();
    const problems: LoadProblem[] = [];
    const warnings: LoadWarning[] = [];
    for (const file of files) {
      if (!(await isFile(resolve(this.root, file)))) {
        updates.set(file, null);
        continue;
      }
      const load = await loadFile(this.root, file, { importer: this.modules });
      warnings.push(...load.warnings);
      if (load.problems.length > 0) problems.push(...load.problems);
      else updates.set(file, load.entries);
    }

    let change: RegistryChange | undefined;
    while (updates.size > 0) {
      try {
        change = this.registry.update(updates);
        break;
      } catch (error) {
        if (!(error instanceof RegistryError)) throw error;
        // Leave out the files the registry refused (a name collision, say) and apply the rest.
        for (const { source, message } of error.problems) {
          problems.push({ file: source, message });
          updates.delete(source);
        }
      }
    }
    return {
      applied: [...updates].filter(([, entries]) => entries !== null).map(([file]) => file),
      removed: [...updates].filter(([, entries]) => entries === null).map(([file]) => file),
      problems,
      warnings,
      change,
      configChanged: paths.some((path) =>
        (CONFIG_FILES as readonly string[]).includes(this.relative(resolve(this.root, path))),
      ),
      ms: performance.now() - started,
    };
  }
}
