import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { LazyPackage } from "../define/lazy-package.js";
import type FastGlob from "../vendor/fast-glob.cjs";
import {
  DEFINITION_FOLDERS,
  type DefinitionFolder,
  folderOf,
  isEditorTempFile,
  isMiddlewareFile,
  isViewFile,
} from "./folders.js";
import { isDirectory } from "./is-directory.js";
import { LinkRule } from "./link-rule.js";
import type { LoadWarning } from "./problems.js";

/** Required, not imported: an import of CommonJS has Node parse the whole bundle for its export names. */
const fastGlob = new LazyPackage<typeof FastGlob>("../vendor/fast-glob.cjs");

export interface ScanResult {
  /** The definition folders that exist, in the order tools, prompts, resources, views. */
  readonly folders: DefinitionFolder[];
  /** Every file to load, relative to the server directory, "/" separators, sorted. */
  readonly files: string[];
  /** Symbolic links left out, each with why. */
  readonly warnings: LoadWarning[];
  /** The files reached through a link, each with its real path (relative, "/" separators). */
  readonly realPaths: ReadonlyMap<string, string>;
}

/** Which files of the definition folders load: the config file's `include` and `exclude`. */
export interface ScanPatterns {
  /** Globs under tools/, prompts/, resources/ or views/: only the files they match load. Default: all. */
  readonly include?: readonly string[] | undefined;
  /** Globs: the files they match, and everything in the folders they match, do not load. */
  readonly exclude?: readonly string[] | undefined;
}

/** Each pattern, and everything under what it matches (so that fast-glob does not walk in). */
function withContents(patterns: readonly string[]): string[] {
  return patterns.flatMap((pattern) => {
    const path = pattern.replace(/\/+$/, "");
    return [path, `${path}/**`];
  });
}

/**
 * Never loaded, whatever `include` says: helpers and private folders (`_x`),
 * hidden files (`.x`), dependencies, tests (`x.test.ts`, `x.spec.ts`) and type
 * declarations (`x.d.ts`); editors' backups and temporary files are left out
 * after the walk (`isEditorTempFile`). A folder's `_middleware.ts` is the one `_` file that
 * loads: the walk leaves `_` files to `isPrivate`, so that one walk finds both.
 * The folders it leaves out are those `isSkippedFolder` names.
 */
const ALWAYS_SKIPPED: readonly string[] = [
  "**/_*/**",
  ...withContents(["**/.*", "**/node_modules"]),
  "**/*.{test,spec}.+([!.])",
  "**/*.d.{ts,mts,cts}",
];

const MIDDLEWARE_NAMES = "_middleware.{ts,mts,js,mjs}";

/** A `_` file other than a middleware: a helper of the files beside it. */
function isPrivate(file: string): boolean {
  const name = file.slice(file.lastIndexOf("/") + 1);
  return name.startsWith("_") && !isMiddlewareFile(file);
}

/** A file under views/ that is no view (a style sheet, an image): views import it, it does not load. */
function isViewAsset(file: string): boolean {
  return folderOf(file) === "views" && !isMiddlewareFile(file) && !isViewFile(file);
}

/** The leading segments of a glob that hold no pattern: the folder fast-glob starts from. */
function staticBase(pattern: string): string {
  const segments = pattern.split("/");
  const dynamic = segments.findIndex((segment) => fastGlob.get().isDynamicPattern(segment));
  return segments.slice(0, dynamic === -1 ? undefined : dynamic).join("/");
}

/**
 * Lists the files of a server directory that load, in a stable order (same
 * tree, same list), with fast-glob: every file under tools/, prompts/ and
 * resources/, and every view under views/ (or those `include` matches)
 * except ALWAYS_SKIPPED and what `exclude` matches. Links are followed while
 * their target stays inside the directory and forms no cycle; any other is
 * left out with a warning.
 */
export async function scanDirectory(dir: string, patterns: ScanPatterns = {}): Promise<ScanResult> {
  const root = await realpath(dir);
  const links = new LinkRule(root);
  const folders: DefinitionFolder[] = [];
  for (const folder of DEFINITION_FOLDERS) {
    if ((await links.reaches(folder)) && (await isDirectory(join(root, folder)))) {
      folders.push(folder);
    }
  }
  // The root's middleware; with `include`, every folder's too (they wrap what it lists).
  const walked: string[] = [MIDDLEWARE_NAMES];
  if (patterns.include) walked.push(...folders.map((folder) => `${folder}/**/${MIDDLEWARE_NAMES}`));
  for (const pattern of patterns.include ?? folders.map((folder) => `${folder}/**`)) {
    const folder = folderOf(pattern);
    // fast-glob reads a pattern's folder directly: a link on the way is checked here.
    if (folder && folders.includes(folder) && (await links.reaches(staticBase(pattern)))) {
      walked.push(pattern);
    }
  }
  const found = await fastGlob.get()(walked, {
    cwd: root,
    ignore: [...ALWAYS_SKIPPED, ...withContents(patterns.exclude ?? [])],
    fs: { stat: links.stat },
    // A folder that cannot be read (or vanished meanwhile) lists nothing, as before.
    suppressErrors: true,
    unique: true,
  });
  const files = found.filter(
    (file) =>
      !isPrivate(file) &&
      !isViewAsset(file) &&
      !isEditorTempFile(file.slice(file.lastIndexOf("/") + 1)),
  );
  files.sort();
  return {
    folders,
    files,
    warnings: inFolderOrder(links.warnings),
    realPaths: realPathsOf(files, links.followed),
  };
}

/** Warnings of tools/ first, then prompts/, then resources/, each sorted. */
function inFolderOrder(warnings: LoadWarning[]): LoadWarning[] {
  const rank = (warning: LoadWarning) =>
    DEFINITION_FOLDERS.indexOf(folderOf(warning.file) as DefinitionFolder);
  return warnings.sort(
    (a, b) => rank(a) - rank(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
  );
}

/** Each file under a followed link, with the real path the link's real target gives it. */
function realPathsOf(files: readonly string[], followed: ReadonlyMap<string, string>) {
  const realPaths = new Map<string, string>();
  if (followed.size === 0) return realPaths;
  for (const file of files) {
    const segments = file.split("/");
    for (let end = segments.length; end > 0; end--) {
      const real = followed.get(segments.slice(0, end).join("/"));
      if (real === undefined) continue;
      realPaths.set(file, [real, ...segments.slice(end)].join("/"));
      break;
    }
  }
  return realPaths;
}
