import { readFileSync } from "node:fs";
import type * as Esbuild from "esbuild";
import { withRelativeImportsRequired } from "./dynamic-imports.js";
import { clearEsbuildGc, withEsbuildGc } from "./esbuild-gc.js";
import { NodeModule } from "./node-module.js";
import { TsxCache } from "./tsx-cache.js";

type TransformOptions = Esbuild.TransformOptions;
type TransformResult = Esbuild.TransformResult;

const require = NodeModule.createRequire(import.meta.url);

/**
 * Thrown by a compile asked for while a load timer runs and esbuild's
 * synchronous worker is not running, when its asynchronous transform failed
 * (so the error is to be tsx's own): starting the worker (a thread and a
 * process, some 100 ms) is no file's to pay, and a timer that stopped it
 * halfway would stop Node's own set-up of the thread, which leaves the
 * process unable to exit or crashing as it does. The loader starts the
 * compiler (startCompiler) outside the timer and loads the file again.
 */
export class CompilerNeeded extends Error {
  constructor() {
    super("esbuild's compiler is to be started before this file compiles");
    this.name = "CompilerNeeded";
  }
}

/**
 * Thrown by a compile asked for while a load timer runs and esbuild's
 * synchronous worker is not running: the file is transformed by esbuild's
 * asynchronous service instead (a process, without the worker's thread: on
 * a first load, most of what a few new files cost), and the loader loads the
 * file again once `transformed` settles, when tsx's call finds the result.
 */
export class TransformNeeded extends Error {
  constructor(readonly transformed: Promise<void>) {
    super("esbuild is transforming this file; it is to be loaded again when that is done");
    this.name = "TransformNeeded";
  }
}

/** What mcp-dir changes in tsx's transforms, named in tsx's cache keys (see the constructor). */
export const TRANSFORMS_MARK = "mcp-dir.relative-imports-required";

/**
 * How many files are transformed ahead in one group (measured on 1000 files:
 * 32 and 64 kept the loader waiting longer, 250 no better).
 */
const AHEAD_GROUP = 128;

/**
 * tsx compiles each author file with esbuild's transformSync: a synchronous
 * round trip to esbuild's process per file, some 0.7 ms here, most of a cold
 * start on a thousand files (no transform cache yet, as in a fresh container).
 * esbuild's asynchronous transform does the same work for many files at once.
 *
 * Speculation bridges the two: the options tsx gives a transform are the
 * pattern for every other file of the directory (only the file's path
 * differs), so those files are transformed ahead, together, and tsx's own
 * transformSync call then takes the result that was made from exactly its
 * code and options (each made by withRelativeImportsRequired from tsx's, for
 * a file ahead as for tsx's own call). Anything else (a file whose options
 * differ, one that failed to transform) goes to esbuild as before:
 * speculation can only make a transform earlier, never different.
 */
export class Speculation {
  private readonly esbuild: typeof Esbuild;
  /** What tsx's latest transform was asked: the pattern for the files after it. */
  private pattern: { file: string; options: string } | undefined;
  /** How many transforms tsx has made itself (its cache did not have the file, nor speculation). */
  misses = 0;
  private readonly ready = new Map<string, TransformResult>();
  /** Counts restartCompiler() calls: the transforms they cut short did not fail. */
  private restarts = 0;
  /** What esbuild's asynchronous transform failed: tsx's own call makes it, and reports the error. */
  private readonly refused = new Set<string>();
  /** Counts forget() calls: a transform still under way when its load ended is not kept. */
  private generation = 0;
  /** True from a transformSync call to its return: still true after a timer stopped it. */
  private transforming = false;
  /** Whether esbuild's synchronous worker is up: once a transform has returned, until a stop. */
  private compilerRunning = false;
  /** True while a load timer runs (the loader says so): see CompilerNeeded. */
  timed = false;
  /** The latest CompilerNeeded or TransformNeeded thrown, until the loader takes it. */
  private thrownNeed: CompilerNeeded | TransformNeeded | undefined;
  /** tsx's own cache of its transforms, in memory and on disk (see TsxCache). */
  private readonly tsxCache = new TsxCache();

  constructor() {
    this.esbuild = require("esbuild") as typeof Esbuild;
    const { transformSync, stop } = this.esbuild;
    const speculative = (code: string, tsxOptions?: TransformOptions): TransformResult => {
      let options = tsxOptions;
      if (tsxOptions?.sourcefile !== undefined) {
        this.tsxCache.beforeKept(tsxOptions.banner);
        options = withRelativeImportsRequired(code, tsxOptions);
        const key = keyOf(code, options);
        const result = this.ready.get(key);
        if (result) {
          this.ready.delete(key);
          return result;
        }
        this.misses++;
        this.pattern = { file: tsxOptions.sourcefile, options: JSON.stringify(tsxOptions) };
        if (!this.compilerRunning && this.timed && !this.refused.has(key)) {
          this.thrownNeed = new TransformNeeded(this.transformInto(code, options, key));
          throw this.thrownNeed;
        }
      }
      if (!this.compilerRunning && this.timed) {
        this.thrownNeed = new CompilerNeeded();
        throw this.thrownNeed;
      }
      this.transforming = true;
      try {
        const result = withEsbuildGc(() => transformSync(code, options));
        this.compilerRunning = true;
        return result;
      } catch (error) {
        this.compilerRunning = true; // esbuild answered: it refused the code.
        throw error;
      } finally {
        // Not reached when the load timer stops the call: V8 skips finally blocks then.
        this.transforming = false;
      }
    };
    const stopped = () => {
      this.compilerRunning = false;
      return stop();
    };
    // tsx (its CommonJS build, loaded after this) calls transformSync on the
    // object require("esbuild") gives; esbuild's own exports are read-only.
    // tsx keys its cache by esbuild's version among others: the mark keeps it
    // from handing back what was transformed without withRelativeImportsRequired.
    const entry = require.cache[require.resolve("esbuild")];
    if (entry) {
      entry.exports = {
        ...this.esbuild,
        version: `${this.esbuild.version}+${TRANSFORMS_MARK}`,
        transformSync: speculative,
        stop: stopped,
      };
    }
  }

  /**
   * What the loader waits for before loading a file again, when a compile
   * during its load asked for it: the need thrown since the last call, if
   * any. A file that requires another inside a try/catch of its own gets
   * that need as a failure, and may carry on without the other file; its
   * load is not what it would have been, and is made again.
   */
  takeThrownNeed(): CompilerNeeded | TransformNeeded | undefined {
    const need = this.thrownNeed;
    this.thrownNeed = undefined;
    return need;
  }

  /** Starts esbuild's synchronous worker, if it is not running (see CompilerNeeded). */
  startCompiler(): void {
    if (this.compilerRunning) return;
    withEsbuildGc(() => this.esbuild.transformSync(""));
    this.compilerRunning = true;
  }

  /**
   * Starts transforming the files at `paths` as tsx will ask for them (esbuild
   * works on them in its own process, beside this thread); each promise
   * resolves when its file's transform is ready, or failed (tsx's own read or
   * transform then meets the error again, and reports it).
   */
  ahead(paths: readonly string[]): Promise<void>[] {
    const pattern = this.pattern;
    if (pattern === undefined) return paths.map(() => Promise.resolve());
    this.tsxCache.expectNewFiles(paths.length);
    const from = JSON.stringify(pattern.file).slice(1, -1);
    const generation = this.generation;
    const transform = async (path: string) => {
      const to = JSON.stringify(path).slice(1, -1);
      const tsxOptions = JSON.parse(pattern.options.split(from).join(to)) as TransformOptions;
      try {
        const code = readFileSync(path, "utf8");
        const options = withRelativeImportsRequired(code, tsxOptions);
        await this.transformInto(code, options, keyOf(code, options), generation);
      } catch {
        // tsx's own read meets the error again, and reports it.
      }
    };
    // In groups, each asked for once the one two before it is done: esbuild answers a group
    // in any order, but groups in turn, so the first files load while it works on the next.
    const done: Promise<void>[] = [];
    const groups: Promise<unknown>[] = [];
    for (let start = 0; start < paths.length; start += AHEAD_GROUP) {
      const after = groups[groups.length - 2] ?? Promise.resolve();
      const group = paths
        .slice(start, start + AHEAD_GROUP)
        .map((path) => after.then(() => transform(path)));
      groups.push(Promise.all(group));
      done.push(...group);
    }
    return done;
  }

  /**
   * Has esbuild's asynchronous service transform `code` into what tsx's call
   * with `key` takes. A transform that comes after forget() is for a load that
   * ended: nothing will ask for it. One that fails is left to tsx's own call,
   * which meets the error again and reports it.
   */
  private async transformInto(
    code: string,
    options: TransformOptions | undefined,
    key: string,
    generation = this.generation,
  ): Promise<void> {
    const restarts = this.restarts;
    try {
      const result = await this.transform(code, options);
      if (generation === this.generation) this.ready.set(key, result);
    } catch {
      // A transform that restartCompiler() cut short is asked for again, from the new service.
      if (restarts === this.restarts) this.refused.add(key);
    }
  }

  /** esbuild's asynchronous transform: every transform made ahead of tsx's call goes through here. */
  transform(code: string, options: TransformOptions | undefined): Promise<TransformResult> {
    return withEsbuildGc(() => this.esbuild.transform(code, options));
  }

  /**
   * Stops esbuild (its service and its worker, if running) after a transform
   * took longer than the load timer allowed: what it still owes is never
   * answered, and the next transform starts it afresh.
   */
  restartCompiler(): void {
    this.restarts++;
    this.compilerRunning = false;
    void this.esbuild.stop();
  }

  /**
   * Says whether a load that the load timer just stopped was inside esbuild's
   * transformSync. If so, esbuild's synchronous worker is restarted: the
   * stopped call's answer is still to come, and would be taken for the next
   * call's ("Internal error: Expected id 1 but got id 0"). Either way, the
   * GOGC a stopped esbuild call was given goes (see withEsbuildGc).
   */
  resetIfStoppedInTransform(): boolean {
    clearEsbuildGc();
    if (!this.transforming) return false;
    this.transforming = false;
    this.restartCompiler();
    return true;
  }

  /** Drops what no call took (a file tsx asked about differently, or not at all), and what is still to come. */
  forget(): void {
    this.ready.clear();
    this.refused.clear();
    this.generation++;
  }
}

function keyOf(code: string, options: TransformOptions): string {
  return `${JSON.stringify(options)}\0${code}`;
}

let speculation: Speculation | undefined;

/** Installs speculation, once per process, before tsx is loaded. */
export function speculativeTransforms(): Speculation {
  speculation ??= new Speculation();
  return speculation;
}
