import { readFileSync, type Stats, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";

/**
 * A path as a build found it: its size and times (both: a tool that keeps a
 * file's mtime, as tar and pnpm's links do, still gives it a new ctime), or
 * nothing where it was absent.
 */
export type Stamp =
  | readonly [path: string, size: number, mtimeMs: number, ctimeMs: number]
  | readonly [path: string];

/**
 * What esbuild consults in a folder of a file it reads, and in every folder
 * above: the settings it compiles by (JSX, paths; a config in a package's
 * folder it ignores) and what it resolves imports through (exports,
 * imports, browser, sideEffects; a nearer node_modules).
 */
const CONSULTED = ["tsconfig.json", "jsconfig.json", "package.json", "node_modules"];
const CONFIGS = new Set(["tsconfig.json", "jsconfig.json"]);

/**
 * The stamps of what a build of `files` (absolute, every file esbuild read)
 * depends on: each file, the folder holding it (a file added beside it can
 * change what an import resolves to), what esbuild consults in those folders
 * and the ones above, and the configs a tsconfig.json extends. Undefined when
 * that cannot be told: a file it read is gone, or a config extends one that
 * cannot be found.
 */
export function stampsOf(files: readonly string[]): Stamp[] | undefined {
  const read = new Set(files);
  const paths = new Set<string>();
  const folders = new Set<string>();
  for (const file of files) {
    paths.add(file);
    paths.add(dirname(file));
    for (let folder = dirname(file); !folders.has(folder); folder = dirname(folder)) {
      folders.add(folder);
      if (dirname(folder) === folder) break;
    }
  }
  for (const folder of folders) {
    const inPackage = folder.split(sep).includes("node_modules");
    for (const name of CONSULTED) {
      const isConfig = CONFIGS.has(name);
      if (isConfig && inPackage) continue;
      const path = join(folder, name);
      paths.add(path);
      if (isConfig && fileStats(path) && !addExtended(path, paths, new Set())) return undefined;
    }
  }
  const stamps: Stamp[] = [];
  for (const path of paths) {
    const stamp = stampOf(path);
    if (stamp.length === 1 && read.has(path)) return undefined;
    stamps.push(stamp);
  }
  return stamps;
}

/**
 * How long after its last change a file counts as settled: a file system
 * stamps times by a coarse clock (whole seconds on some, two on FAT), so a
 * file changed in the same tick as it was read could change again under the
 * same stamp. What depends on a file read sooner is not kept.
 */
export const SETTLE_MS = 2_000;

/** One path's stamp: its size and times, or nothing where it is absent. */
export function stampOf(path: string): Stamp {
  const stats = stat(path);
  return stats ? [path, stats.size, stats.mtimeMs, stats.ctimeMs] : [path];
}

/**
 * The stamps of the tsconfig.json tsx compiles by in a process started in
 * `cwd` (`explicit`, tsx's TSX_TSCONFIG_PATH, else the nearest one up) and
 * of the configs it extends; where there is none, of each place looked in.
 * Undefined when it extends one that cannot be found.
 */
export function configStamps(cwd: string, explicit?: string): Stamp[] | undefined {
  const paths = new Set<string>();
  let config = explicit ? resolve(cwd, explicit) : undefined;
  if (config) paths.add(config);
  for (let folder = cwd; config === undefined; folder = dirname(folder)) {
    const path = join(folder, "tsconfig.json");
    paths.add(path);
    if (fileStats(path)) config = path;
    else if (dirname(folder) === folder) break;
  }
  if (config && fileStats(config) && !addExtended(config, paths, new Set())) return undefined;
  return [...paths].map(stampOf);
}

/** Whether every path is as its stamp says: present with the same size and times, or absent. */
export function unchanged(stamps: readonly Stamp[]): boolean {
  for (const [path, size, mtimeMs, ctimeMs] of stamps) {
    const stats = stat(path);
    if (stats === undefined ? size !== undefined : !sameStats(stats, size, mtimeMs, ctimeMs)) {
      return false;
    }
  }
  return true;
}

/** The latest time (ms since the epoch) any stamped path was changed. */
export function lastChange(stamps: readonly Stamp[]): number {
  let last = Number.NEGATIVE_INFINITY;
  for (const [, , mtimeMs, ctimeMs] of stamps) {
    if (mtimeMs !== undefined && ctimeMs !== undefined) last = Math.max(last, mtimeMs, ctimeMs);
  }
  return last;
}

function sameStats(stats: Stats, size?: number, mtimeMs?: number, ctimeMs?: number): boolean {
  return stats.size === size && stats.mtimeMs === mtimeMs && stats.ctimeMs === ctimeMs;
}

/** A path's stats, following links; undefined when it, or a folder on its way, is absent. */
function stat(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw error;
  }
}

function fileStats(path: string): Stats | undefined {
  const stats = stat(path);
  return stats?.isFile() ? stats : undefined;
}

/**
 * Adds the paths where what `config` extends may be, as esbuild looks for it,
 * and follows the one found; false when it extends something not found (a
 * package's exports map, say) or says so in a way not understood.
 */
function addExtended(config: string, paths: Set<string>, seen: Set<string>): boolean {
  if (seen.has(config)) return true;
  seen.add(config);
  const text = readFileSync(config, "utf8");
  if (!text.includes('"extends"')) return true;
  const value = /"extends"\s*:\s*("(?:[^"\\]|\\.)*"|\[[^\]]*\])/.exec(text)?.[1];
  if (value === undefined) return false;
  for (const [literal] of value.matchAll(/"(?:[^"\\]|\\.)*"/g)) {
    const found = findExtended(dirname(config), JSON.parse(literal) as string, paths);
    if (found === undefined || !addExtended(found, paths, seen)) return false;
  }
  return true;
}

/**
 * The config `extends: spec` of a config in `folder` names, found as esbuild
 * looks for it (nearest first), with every place it looked added to `paths`:
 * one found later may be added nearer.
 */
function findExtended(folder: string, spec: string, paths: Set<string>): string | undefined {
  const places: string[] = [];
  if (spec.startsWith(".") || isAbsolute(spec)) {
    const path = resolve(folder, spec);
    places.push(path, `${path}.json`);
  } else {
    const name = spec.split("/", spec.startsWith("@") ? 2 : 1).join("/");
    for (let above = folder; ; above = dirname(above)) {
      const modules = join(above, "node_modules");
      // Its package.json may point elsewhere (exports, a "tsconfig" field): a change to it counts.
      paths.add(join(modules, name, "package.json"));
      places.push(
        join(modules, spec),
        join(modules, `${spec}.json`),
        join(modules, spec, "tsconfig.json"),
      );
      if (dirname(above) === above) break;
    }
  }
  for (const place of places) paths.add(place);
  return places.find((place) => fileStats(place));
}
