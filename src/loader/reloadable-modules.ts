import { sep } from "node:path";
import { isPlainObject } from "../define/plain-object.js";
import { BuildInputs } from "./build-inputs.js";
import { hookAuthorDir, outsideHelpers, packages, speculation } from "./commonjs-hooks.js";
import { isCompileStop, isNeed, readyPrefix, timed, transformedBefore } from "./compile-waits.js";
import { EsmImports } from "./esm-imports.js";
import { type ModuleNamespace, PackageNeeded } from "./esm-packages.js";
import {
  DEFAULT_LOAD_TIMEOUT_MS,
  LoadTimeoutError,
  type Outcome,
  runBefore,
  runEachBefore,
  settleBefore,
} from "./load-timeout.js";
import { ModuleCacheClaim } from "./module-cache-claim.js";
import { helpersImported, importersIn, type ModuleCache } from "./module-graph.js";
import { NodeModule as Module } from "./node-module.js";
import { nodeStack } from "./node-stack.js";
import { CompilerNeeded, TransformNeeded } from "./speculative-transforms.js";
import {
  asFile,
  guardTopLevel,
  guardTopLevelAsync,
  runTopLevel,
  settleTopLevel,
  takeTopLevelFailure,
} from "./top-level-guard.js";

export type { ModuleNamespace } from "./esm-packages.js";

/**
 * Loads the files of one server directory so that each can be dropped and
 * loaded afresh, with its old instance left for the garbage collector.
 *
 * Files inside the directory go through tsx's CommonJS hooks (ES module syntax
 * and TypeScript are transformed) and live in `require.cache`, where a reload
 * deletes them; packages (zod, mcp-dir) load once and are shared: those that a
 * file written as an ES module imports come from Node's ES module loader
 * (EsmPackages), those of a CommonJS file from require(). Measured: a
 * reload takes about 1 ms, where a tsx ESM namespace per reload re-imports every
 * package (hundreds of ms and megabytes each time). A file with top-level await
 * cannot be CommonJS: it is imported as an ES module instead (its helpers are
 * its own copies, its packages one copy for all such files: esm-format-hook.ts),
 * and what its import loaded is kept, for importersOf(): EsmImports).
 */
export class ReloadableModules {
  private readonly require: NodeJS.Require;
  private readonly prefix: string;
  /** This loader's modules of the directory in require.cache (another loader's may be there). */
  private readonly claim: ModuleCacheClaim;
  private readonly esmOnly = new Set<string>();
  /** The files imported as ES modules, with what each load brought in. */
  private readonly esmImports: EsmImports;
  /** Files built, not imported (views), with what each was built from. */
  private readonly builds = new BuildInputs();
  /** Files loaded by preload() and not yet asked for by import(). */
  private readonly preloaded = new Map<string, Outcome<ModuleNamespace>>();

  /** How long loading one file may take; a longer load fails with a LoadTimeoutError. */
  loadTimeoutMs = DEFAULT_LOAD_TIMEOUT_MS;

  constructor(readonly dir: string) {
    this.prefix = `${dir}${sep}`;
    hookAuthorDir(dir);
    this.require = Module.createRequire(this.prefix);
    const prefix = this.prefix;
    const inDir = (id: string) => inDirectory(prefix, id);
    this.claim = new ModuleCacheClaim(dir, this.require.cache, inDir);
    this.esmImports = new EsmImports(this.cache, inDir);
    this.clear();
  }

  /**
   * Imports a file of the directory. A package that a file written as an ES
   * module imports is first imported with Node's ES module loader, and the
   * file loaded again (once per package for the process). Loading fails with
   * a LoadTimeoutError after `loadTimeoutMs`: synchronous code is stopped,
   * a wait is given up. It fails too when the file's top-level code left a
   * rejection unhandled or called process.exit() (see top-level-guard.ts).
   */
  async import(absolutePath: string): Promise<ModuleNamespace> {
    const preloaded = this.preloaded.get(absolutePath);
    if (preloaded) {
      this.preloaded.delete(absolutePath);
      if (preloaded.ok) return preloaded.value;
      throw preloaded.error;
    }
    let namespace: ModuleNamespace;
    try {
      namespace = await this.load(absolutePath);
    } catch (error) {
      await settleTopLevel();
      takeTopLevelFailure(absolutePath); // What it threw is the first thing that went wrong.
      throw error;
    }
    await settleTopLevel();
    const failure = takeTopLevelFailure(absolutePath);
    if (failure === undefined) return namespace;
    this.forget(absolutePath);
    throw failure;
  }

  private async load(absolutePath: string): Promise<ModuleNamespace> {
    const ms = this.loadTimeoutMs;
    let deadline = performance.now() + ms;
    let compileStops = 0;
    for (;;) {
      if (this.esmOnly.has(absolutePath)) {
        this.claim.take();
        return guardTopLevelAsync(absolutePath, () =>
          settleBefore(deadline, ms, this.esmImports.import(absolutePath)),
        );
      }
      try {
        return toNamespace(
          runTopLevel(absolutePath, () =>
            timed(() => runBefore(deadline, ms, () => this.requireWithStack(absolutePath))),
          ),
        );
      } catch (thrown) {
        let error = thrown;
        const final = this.failed(absolutePath, error);
        if (error instanceof TransformNeeded) error = await transformedBefore(deadline, ms, error);
        if (isCompileStop(error) && compileStops++ === 0) {
          // None of its code ran: it gets another try, on a fresh timer.
          deadline = performance.now() + ms;
          continue;
        }
        if (final || isCompileStop(error)) throw error;
        if (error instanceof CompilerNeeded) {
          speculation?.startCompiler();
          deadline = performance.now() + ms;
        } else if (error instanceof PackageNeeded) {
          await settleBefore(deadline, ms, packages.import(error));
        }
      }
    }
  }

  /**
   * Loads files ahead of their import(), many under one load timer (see
   * runEachBefore): a directory's first load has every code file at hand. Each
   * still gets loadTimeoutMs. A file that needs a package from Node's ES module
   * loader first waits for it, as import() would; one with top-level await is
   * left to import().
   */
  async preload(absolutePaths: readonly string[]): Promise<void> {
    const ms = this.loadTimeoutMs;
    let rest = absolutePaths.filter((path) => !this.esmOnly.has(path));
    // Once tsx has had to transform most of this load's first files (its cache is cold),
    // the rest are transformed ahead, together; one new file in a cached folder is not worth it.
    const missesBefore = speculation?.misses ?? 0;
    /** How many files have loaded, or failed to (not those waiting for something). */
    let loaded = 0;
    /** With transforms ahead: for each file of `rest`, when its transform is ready. */
    let transformed: Promise<void>[] | undefined;
    const wantsAhead = () => {
      const misses = (speculation?.misses ?? 0) - missesBefore;
      return transformed === undefined && misses >= 2 && misses * 2 >= loaded;
    };
    try {
      while (rest.length > 0) {
        // Files load while esbuild transforms those after them: each batch is what is ready.
        const batch = transformed ? await readyPrefix(transformed) : rest.length;
        const outcomes = guardTopLevel(() =>
          timed(() =>
            runEachBefore(
              rest.slice(0, batch),
              ms,
              (path) => asFile(path, () => toNamespace(this.requireWithStack(path))),
              (outcome) => {
                // After a stop, the next file waits for the compiler to start again.
                const error = outcome.ok ? undefined : outcome.error;
                // A file that waits for something is loaded again: it counts once, then.
                if (!isNeed(error)) loaded++;
                return isNeed(error) || error instanceof LoadTimeoutError || wantsAhead();
              },
            ),
          ),
        );
        outcomes.forEach((outcome, index) => {
          const path = rest[index] as string;
          if (outcome.ok) {
            this.preloaded.set(path, outcome);
          } else if (this.failed(path, outcome.error) && !isCompileStop(outcome.error)) {
            // (A file stopped while it compiled is left to import(), which tries it again.)
            this.preloaded.set(path, outcome);
          }
        });
        const last = outcomes.at(-1);
        const needed = last?.ok === false && isNeed(last.error) ? last.error : undefined;
        // The file that waited for its package, or for the compiler, is loaded again.
        const done = needed ? outcomes.length - 1 : outcomes.length;
        rest = rest.slice(done);
        transformed = transformed?.slice(done);
        if (wantsAhead()) transformed = speculation?.ahead(rest);
        if (needed instanceof CompilerNeeded) {
          speculation?.startCompiler();
        } else if (needed instanceof TransformNeeded) {
          // A transform the timer gave up on is left to import(), which tries it again.
          if (isCompileStop(await transformedBefore(performance.now() + ms, ms, needed))) return;
        } else if (needed) {
          try {
            await settleBefore(performance.now() + ms, ms, packages.import(needed));
          } catch {
            return; // import() of that file meets the failure again, and reports it.
          }
        }
      }
    } finally {
      speculation?.forget();
      await this.settlePreloaded();
    }
  }

  /**
   * A preloaded file whose top-level code left a rejection unhandled, or
   * called process.exit() (and caught what was thrown), fails after all.
   */
  private async settlePreloaded(): Promise<void> {
    await settleTopLevel();
    const failed: [string, Error][] = [];
    for (const [path, outcome] of this.preloaded) {
      const failure = takeTopLevelFailure(path);
      if (failure !== undefined && outcome.ok) failed.push([path, failure]);
    }
    for (const [path, error] of failed) {
      this.forget(path);
      this.preloaded.set(path, { ok: false, error });
    }
  }

  /**
   * Cleans up after a load of `path` that threw, and says whether that is its
   * outcome (true) or it is to be loaded again: after the package it needs is
   * imported, or as an ES module (top-level await).
   */
  private failed(path: string, error: unknown): boolean {
    this.forget(path);
    if (error instanceof LoadTimeoutError) {
      this.forgetUnfinished();
      if (speculation?.resetIfStoppedInTransform()) error.whileCompiling = true;
    }
    if (isNeed(error)) return false;
    if (isTopLevelAwait(error)) {
      this.esmOnly.add(path);
      return false;
    }
    return true;
  }

  /**
   * Node's and tsx's frames of a require() fill the default 10, and more
   * with each top-level await file a process has loaded (each tsImport wraps
   * require's resolution in hooks of its own): no limit while it runs keeps
   * the author's frame in sight. A compile that asked to be waited for fails
   * the load with that need, whatever the author's code made of it (see
   * takeThrownNeed).
   */
  private requireWithStack(absolutePath: string): unknown {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Number.POSITIVE_INFINITY;
    speculation?.takeThrownNeed();
    this.claim.take();
    try {
      const exports = this.require(absolutePath);
      const need = speculation?.takeThrownNeed();
      if (need) throw need;
      return exports;
    } catch (error) {
      // Written now, as Node writes it, before anything on the way out writes it another way.
      if (error instanceof Error) nodeStack(error);
      throw speculation?.takeThrownNeed() ?? error;
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  private get cache(): ModuleCache {
    return this.claim.take() as ModuleCache;
  }

  private inDir(id: string): boolean {
    return inDirectory(this.prefix, id);
  }

  /**
   * The files of the directory (and helpers outside it) that import `file`,
   * directly or through others: those in require.cache, and those imported
   * as ES modules.
   */
  importersOf(files: Iterable<string>): Set<string> {
    const changed = [...files];
    // A helper outside the directory leads to the files that import it.
    const found = importersIn(
      this.cache,
      changed,
      (id) => this.inDir(id) || outsideHelpers.has(id),
    );
    for (const file of this.esmImports.importersOf(changed)) found.add(file);
    return found;
  }

  /**
   * The helpers outside the directory (see outsideHelpers) that its files
   * import now, directly or through others, and the files outside it that
   * its views were built from: `dev` watches them too.
   */
  outsideHelpers(): string[] {
    const required = helpersImported(
      this.cache,
      (id) => this.inDir(id),
      (id) => outsideHelpers.has(id),
    );
    const built = this.builds.inputsOutside((path) => this.inDir(path));
    return [...new Set([...required, ...this.esmImports.outsideHelpers, ...built])];
  }

  /**
   * Drops `files` and every file of the directory (or helper outside it)
   * that imports them, so the next import loads them afresh. Returns every
   * file dropped, and the views built from any of them.
   */
  invalidate(files: Iterable<string>): Set<string> {
    const dropped = new Set(files);
    for (const importer of this.importersOf(dropped)) dropped.add(importer);
    for (const file of dropped) this.forget(file);
    // Views built from any of them are to be built again, as importers are to be imported.
    for (const built of this.builds.builtFrom(dropped)) dropped.add(built);
    return dropped;
  }

  recordInputs(absolutePath: string, inputs: readonly string[]): void {
    this.builds.record(absolutePath, inputs);
  }

  /** Forgets every file of the directory (packages stay loaded). */
  clear(): void {
    for (const file of this.esmImports.files) this.forget(file);
    for (const id of Object.keys(this.cache)) if (this.inDir(id)) this.forget(id);
  }

  /** A stopped load leaves the modules it was loading in the cache, unfinished. */
  private forgetUnfinished(): void {
    for (const [id, mod] of Object.entries(this.cache)) {
      if (mod && !mod.loaded && this.inDir(id)) this.forget(id);
    }
  }

  private forget(file: string): void {
    this.preloaded.delete(file);
    this.esmImports.forget(file);
    const mod = this.cache[file];
    if (!mod) return;
    // The module that first required it keeps it in `children`: unlink, or it is never collected.
    const siblings = mod.parent?.children;
    const index = siblings?.indexOf(mod) ?? -1;
    if (siblings && index >= 0) siblings.splice(index, 1);
    delete this.cache[file];
  }
}

/** A file of the directory (`prefix` is its path and a separator), not of its packages. */
function inDirectory(prefix: string, id: string): boolean {
  return id.startsWith(prefix) && !id.slice(prefix.length).includes(`node_modules${sep}`);
}

function isTopLevelAwait(error: unknown): boolean {
  return error instanceof Error && /Top-level await is currently not supported/.test(error.message);
}

/**
 * ES module syntax compiled to CommonJS marks its exports with __esModule;
 * plain CommonJS is the default export (as is an exports object that throws
 * when read: the loader says so, naming that export).
 */
function toNamespace(exports: unknown): ModuleNamespace {
  if (typeof exports === "object" && exports !== null && isMarkedEsModule(exports)) {
    return exports as ModuleNamespace;
  }
  // A file with no import or export compiles to CommonJS whose exports stay {}: it exports nothing.
  if (isEmptyObject(exports)) return {};
  return { default: exports };
}

function isMarkedEsModule(exports: object): boolean {
  try {
    return Boolean((exports as { __esModule?: unknown }).__esModule);
  } catch {
    return false;
  }
}

function isEmptyObject(value: unknown): boolean {
  try {
    return isPlainObject(value) && Object.keys(value).length === 0;
  } catch {
    return false;
  }
}
