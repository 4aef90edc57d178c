import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { type Registry, type RegistryChange, RegistryError } from "../../registry/registry.js";
import { applyWhatFits, type SourceUpdates } from "../apply.js";
import { folderOf, isMiddlewareFile } from "../folders.js";
import { loadFile } from "../load-file.js";
import { type LoadProblem, type LoadWarning, problemsByFile } from "../problems.js";
import type { ReloadableModules } from "../reloadable-modules.js";
import { type ScanPatterns, scanDirectory } from "../scan.js";
import { viewLinkWarnings } from "../view-links.js";
import { type ConfigCheck, checkConfig, isConfigFile } from "./config-check.js";
import { middlewareStandIn } from "./middleware-stand-in.js";
import { TakenFiles } from "./taken-files.js";

/** What one reload did. Paths are relative to the server directory. */
export interface ReloadOutcome {
  /** Definition files whose new definitions are now served. */
  readonly applied: readonly string[];
  /** Those of `applied` that had failed to load before: served again. */
  readonly fixed: readonly string[];
  /** Definition files that are gone, with their definitions. */
  readonly removed: readonly string[];
  /**
   * Files that failed: each keeps its last good definitions in service. A file
   * retried only because it was failing is listed when its problem changed.
   */
  readonly problems: readonly LoadProblem[];
  readonly warnings: readonly LoadWarning[];
  /**
   * `_middleware` files that have failed since they were last good, or ever:
   * what each wraps refuses every call until it loads.
   */
  readonly standing: readonly string[];
  /** What clients were told, when anything changed. */
  readonly change: RegistryChange | undefined;
  /** The config file changed: that takes a restart. */
  readonly configChanged: boolean;
  /**
   * When the config file changed: what it holds now, read as a start reads
   * it (its problems, or none: a restart applies it). The server keeps the
   * config it started with.
   */
  readonly config?: ConfigCheck;
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
 *
 * A failing file is retried at every later reload until it loads: what broke
 * it may be elsewhere (a helper it imports, a file whose name it collides with),
 * and a module that failed to load is not in the module graph that finds importers.
 */
export class HotReloader {
  /** Files whose last load failed, with their problems. */
  private readonly failing = new Map<string, readonly LoadProblem[]>();
  /**
   * Failing files that were stopped for their time: retried only when a file
   * that is not a definition file (a helper) changed, not at every save.
   */
  private readonly slow = new Set<string>();
  /** What the last scan listed, and the links it left out (each reported once). */
  private listed = new Set<string>();
  private skippedLinks = new Set<string>();
  /** Failing `_middleware` files with no good version: a stand-in refuses what each wraps. */
  private readonly standIns = new Set<string>();
  /** What each file held when a reload was last handed it or loaded it. */
  private readonly taken = new TakenFiles();

  /**
   * `patterns` are the config file's include and exclude: every reload scans
   * the directory again by the start-up scan's rule, and loads only what it lists.
   */
  constructor(
    private readonly root: string,
    private readonly registry: Registry,
    private readonly modules: ReloadableModules,
    private readonly patterns: ScanPatterns = {},
  ) {}

  /** Files whose last load failed: each keeps its last good definitions, if any, in service. */
  get failingFiles(): readonly string[] {
    return [...this.failing.keys()];
  }

  /** Helpers outside the directory that its files import now (absolute): to be watched too. */
  get outsideHelpers(): readonly string[] {
    return this.modules.outsideHelpers();
  }

  /** `_middleware` files that never loaded (or not since they were last removed): what each wraps refuses. */
  get standingIn(): readonly string[] {
    return [...this.standIns];
  }

  /** Every problem of the files that fail now. */
  get problems(): readonly LoadProblem[] {
    return [...this.failing.values()].flat();
  }

  private relative(path: string): string {
    return relative(this.root, path).split(sep).join("/");
  }

  private servedSources(): Set<string> {
    return new Set(this.registry.sources());
  }

  /**
   * Call once, after the directory was loaded into the registry and before the
   * first reload: loads the definition files the registry does not serve (they
   * failed, or collided with another file) so those that can be served are,
   * and remembers the failing ones so that fixing their cause recovers them.
   * Their problems were reported by the initial load and are not repeated
   * (`problems` has them). With `everyFile`, for a registry the directory was
   * not loaded into by these modules, every file it lists is loaded afresh.
   */
  async start(options: { everyFile?: boolean } = {}): Promise<ReloadOutcome> {
    const started = performance.now();
    const { files, warnings } = await scanDirectory(this.root, this.patterns);
    this.listed = new Set(files);
    this.skippedLinks = new Set(warnings.map(({ file }) => file));
    const served = options.everyFile ? new Set<string>() : this.servedSources();
    const updates: SourceUpdates = new Map();
    const problems: LoadProblem[] = [];
    const toLoad = files.filter((file) => !served.has(file));
    // So that the watcher's first look (what changed while the directory loaded) skips them.
    await this.taken.take(toLoad.map((file) => resolve(this.root, file)));
    for (const file of toLoad) {
      const load = await loadFile(this.root, file, { importer: this.modules });
      if (load.timedOut) this.slow.add(file);
      if (load.problems.length > 0) problems.push(...load.problems);
      else if (load.entries.length > 0) updates.set(file, load.entries);
    }
    const standing = this.standIn(updates, problems, served);
    const change = this.apply(updates, problems);
    this.remember(problems, new Set(files), new Set());
    return {
      applied: [...updates.keys()].filter((file) => !standing.has(file)),
      fixed: [],
      removed: [],
      problems: [],
      warnings: [],
      standing: this.standingIn,
      change,
      configChanged: false,
      ms: performance.now() - started,
    };
  }

  /**
   * Scans the directory again by the start-up scan's rule and says what the
   * changes at `paths` (absolute) mean: the listed files to load (touched, or
   * listed now and not before: a link made, a folder moved in) and whether a
   * file that is no definition file (a helper) changed. Links the scan newly
   * left out are warned about once.
   */
  private async rescan(paths: readonly string[]) {
    const scan = await scanDirectory(this.root, this.patterns);
    const listed = new Set(scan.files);
    // A file reached through a link changes when its real file does.
    const reachedFrom = (real: readonly string[]) => {
      const of = new Set(real);
      return [...scan.realPaths].filter(([, path]) => of.has(path)).map(([file]) => file);
    };
    const viaLinks = reachedFrom(paths.map((path) => this.relative(path)));
    const dropped = this.modules.invalidate([
      ...paths,
      ...viaLinks.map((file) => resolve(this.root, file)),
    ]);
    const touched = [...new Set([...paths, ...dropped].map((path) => this.relative(path)))];
    const arrived = scan.files.filter((file) => !this.listed.has(file));
    // Node keeps a module at its real path: an importer dropped there is served at its link's.
    const changed = [
      ...new Set([
        ...touched.filter((file) => listed.has(file)),
        ...viaLinks,
        ...reachedFrom(touched),
        ...arrived,
      ]),
    ].sort();
    const helperChanged = touched.some((file) => !listed.has(file) && !this.listed.has(file));
    const warnings = scan.warnings.filter(({ file }) => !this.skippedLinks.has(file));
    this.listed = listed;
    this.skippedLinks = new Set(scan.warnings.map(({ file }) => file));
    return { listed, touched, changed, helperChanged, warnings };
  }

  /**
   * Those of `paths` (absolute or relative to the server directory) whose
   * file changed since a reload was last handed it or loaded it, noted as
   * they are now (before any is read: a save made while they load is a change
   * still). The others hold what is served already (chokidar reported one
   * save twice, or a reload's scan loaded the file before its event came):
   * reloading them would repeat a reload. Every path is news before the
   * first reload.
   */
  changedAmong(paths: readonly string[]): Promise<string[]> {
    return this.taken.takeChanged(paths.map((path) => resolve(this.root, path)));
  }

  /**
   * Applies the changes at `paths` (absolute or relative to the server
   * directory, as changedAmong gave them). A file loads only if the scan
   * lists it now, and a served file it no longer lists is removed (deleted,
   * excluded, or its link now leads outside).
   */
  async reload(paths: readonly string[]): Promise<ReloadOutcome> {
    const started = performance.now();
    const listedBefore = this.listed;
    const absolute = paths.map((path) => resolve(this.root, path));
    const { listed, touched, changed, helperChanged, warnings } = await this.rescan(absolute);
    const retried = [...this.failing.keys()]
      .filter((file) => !changed.includes(file) && (helperChanged || !this.slow.has(file)))
      .sort();

    const updates: SourceUpdates = new Map();
    const problems: LoadProblem[] = [];
    const served = this.servedSources();
    const remove = (file: string) => {
      // A path that served nothing (a file that never loaded) goes quietly.
      if (served.has(file)) updates.set(file, null);
      this.failing.delete(file);
      this.slow.delete(file);
      this.standIns.delete(file);
    };
    // What the server serves besides the directory's files (definitions made in code) stays.
    for (const file of new Set([...listedBefore, ...this.failing.keys()])) {
      if (!listed.has(file)) remove(file);
    }
    const toLoad = [...changed, ...retried].filter((file) => listed.has(file));
    // Those the scan found besides the paths handed over (changedAmong noted those), all at once, before any is read.
    const handed = new Set(absolute);
    await this.taken.take(
      toLoad.map((file) => resolve(this.root, file)).filter((path) => !handed.has(path)),
    );
    for (const file of toLoad) {
      // Gone since the scan.
      if (!(await isFile(resolve(this.root, file)))) {
        remove(file);
        continue;
      }
      const load = await loadFile(this.root, file, { importer: this.modules });
      // Deleted while it loaded (a branch checked out): what failed is its being gone.
      if (load.problems.length > 0 && !(await isFile(resolve(this.root, file)))) {
        remove(file);
        continue;
      }
      if (load.timedOut) this.slow.add(file);
      else this.slow.delete(file);
      if (!retried.includes(file)) warnings.push(...load.warnings);
      if (load.problems.length > 0) problems.push(...load.problems);
      // A file that serves nothing and served nothing (an ignored file) changes nothing.
      else if (load.entries.length > 0 || served.has(file)) updates.set(file, load.entries);
    }
    const wasFailing = new Set(this.failing.keys());
    const standing = this.standIn(updates, problems, served);
    // A link a save broke elsewhere (a view deleted, a tool renamed) is told as a start tells it.
    const linksBefore =
      updates.size > 0 ? new Set(viewLinkWarnings(this.registry).map(warningKey)) : undefined;
    const change = this.apply(updates, problems);
    if (linksBefore) {
      const broken = viewLinkWarnings(this.registry);
      warnings.push(...broken.filter((warning) => !linksBefore.has(warningKey(warning))));
    }
    const applied = [...updates]
      .filter(([file, entries]) => entries !== null && !standing.has(file))
      .map(([file]) => file);
    const savedConfig = touched.filter(isConfigFile);
    return {
      applied,
      fixed: applied.filter((file) => wasFailing.has(file)),
      removed: [...updates].filter(([, entries]) => entries === null).map(([file]) => file),
      problems: this.remember(problems, new Set([...changed, ...retried]), new Set(changed)),
      warnings,
      standing: this.standingIn,
      change,
      configChanged: savedConfig.length > 0,
      ...(savedConfig.length > 0 && {
        config: await checkConfig(this.root, this.modules, savedConfig),
      }),
      ms: performance.now() - started,
    };
  }

  /**
   * Puts a stand-in (`middlewareStandIn`) in `updates` for each failing
   * `_middleware` file that has no good version in service, so what it wraps
   * is refused rather than run without it; a file that loads (or goes) is no
   * longer stood in for. Returns the files stood in for by this update.
   */
  private standIn(
    updates: SourceUpdates,
    problems: readonly LoadProblem[],
    served: ReadonlySet<string>,
  ): Set<string> {
    for (const [file, entries] of updates) if (entries !== null) this.standIns.delete(file);
    const byFile = problemsByFile(
      problems.filter(
        ({ file }) =>
          isMiddlewareFile(file) &&
          !updates.has(file) &&
          (!served.has(file) || this.standIns.has(file)),
      ),
    );
    for (const [file, list] of byFile) {
      updates.set(file, middlewareStandIn(file, list));
      this.standIns.add(file);
    }
    return new Set(byFile.keys());
  }

  /**
   * Makes one registry update of `updates`, leaving out (with a problem) what
   * the registry refuses. A collision with a file that is gone from the disk
   * (a rename whose removal is not seen yet) removes that file instead.
   */
  private apply(updates: SourceUpdates, problems: LoadProblem[]): RegistryChange | undefined {
    if (updates.size === 0) return undefined;
    try {
      return this.registry.update(updates);
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
    }
    for (const file of this.missingSources(updates)) updates.set(file, null);
    const applied = applyWhatFits(this.registry, updates);
    problems.push(...applied.problems);
    return applied.change;
  }

  /** Served files, not among `updates`, that no longer exist on disk. */
  private missingSources(updates: SourceUpdates): string[] {
    return [...this.servedSources()].filter(
      (source) =>
        !updates.has(source) &&
        (folderOf(source) !== undefined || isMiddlewareFile(source)) &&
        !existsSync(resolve(this.root, source)),
    );
  }

  /**
   * Records which of the `attempted` files now fail and returns the problems
   * worth reporting: those of `reported` files, and any other file's whose
   * problem changed.
   */
  private remember(
    problems: readonly LoadProblem[],
    attempted: ReadonlySet<string>,
    reported: ReadonlySet<string>,
  ): LoadProblem[] {
    const byFile = problemsByFile(problems);
    const said = (list: readonly LoadProblem[] | undefined) =>
      list?.map(({ message }) => message).join("\n");
    const shown: LoadProblem[] = [];
    for (const [file, list] of byFile) {
      if (reported.has(file) || said(this.failing.get(file)) !== said(list)) shown.push(...list);
      this.failing.set(file, list);
    }
    for (const file of attempted) if (!byFile.has(file)) this.failing.delete(file);
    return shown;
  }
}

function warningKey({ file, message }: LoadWarning): string {
  return `${file}\0${message}`;
}
