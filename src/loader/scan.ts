import type { Dirent } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { DEFINITION_FOLDERS, type DefinitionFolder } from "./folders.js";
import { isInsideDir } from "./inside-dir.js";
import type { LoadWarning } from "./problems.js";

export interface ScanResult {
  /** The definition folders that exist, in the order tools, prompts, resources. */
  readonly folders: DefinitionFolder[];
  /** Every file to load, relative to the server directory, "/" separators, sorted. */
  readonly files: string[];
  /** Symbolic links left out, each with why. */
  readonly warnings: LoadWarning[];
}

function isPrivateSegment(segment: string): boolean {
  return segment.startsWith("_") || segment.startsWith(".") || segment === "node_modules";
}

/**
 * Files the loader never imports: helpers and private folders (`_x`), hidden
 * files (`.x`), tests (`x.test.ts`, `x.spec.ts`), type declarations (`x.d.ts`).
 */
export function isSkipped(relativePath: string): boolean {
  const segments = relativePath.split("/");
  const base = segments[segments.length - 1] ?? "";
  return (
    segments.some(isPrivateSegment) ||
    /\.(test|spec)\.[^.]+$/.test(base) ||
    /\.d\.[cm]?ts$/.test(base)
  );
}

const OUTSIDE =
  "is a symbolic link that leads outside the server directory; skipped (only links whose target stays inside the server directory are followed)";
const CYCLE = "is a symbolic link to a folder that contains it (a cycle); skipped";
const BROKEN = "is a symbolic link to nothing (its target does not exist); skipped";

type Resolved = { kind: "file" | "dir"; real: string } | undefined;

/** One walk of a server directory: the files found and the links left out. */
class Walk {
  readonly files: string[] = [];
  readonly warnings: LoadWarning[] = [];

  constructor(private readonly root: string) {}

  /**
   * What a path is once links are followed, or undefined (with a warning) for a
   * link that is broken, leaves the server directory or leads back to a folder
   * being walked.
   */
  async resolve(path: string, isLink: boolean, ancestors: readonly string[]): Promise<Resolved> {
    const absolute = join(this.root, path);
    let real: string;
    let isDirectory: boolean;
    try {
      real = await realpath(absolute);
      isDirectory = (await stat(real)).isDirectory();
    } catch {
      if (isLink) this.warnings.push({ file: path, message: BROKEN });
      return undefined;
    }
    if (!isLink) return { kind: isDirectory ? "dir" : "file", real };
    if (!isInsideDir(this.root, real)) {
      this.warnings.push({ file: path, message: OUTSIDE });
      return undefined;
    }
    if (isDirectory && ancestors.some((ancestor) => isInsideDir(real, ancestor))) {
      this.warnings.push({ file: path, message: CYCLE });
      return undefined;
    }
    return { kind: isDirectory ? "dir" : "file", real };
  }

  async folder(path: string, ancestors: readonly string[]): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(join(this.root, path), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const child = `${path}/${entry.name}`;
      if (isPrivateSegment(entry.name)) continue;
      if (entry.isFile()) {
        if (!isSkipped(child)) this.files.push(child);
        continue;
      }
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const resolved = await this.resolve(child, entry.isSymbolicLink(), ancestors);
      if (resolved?.kind === "file" && !isSkipped(child)) this.files.push(child);
      else if (resolved?.kind === "dir") await this.folder(child, [...ancestors, resolved.real]);
    }
  }
}

/**
 * Lists the files of a server directory in a stable order (same tree, same
 * list). Links are followed while their target stays inside the directory and
 * forms no cycle; any other is left out with a warning.
 */
export async function scanDirectory(dir: string): Promise<ScanResult> {
  const root = await realpath(dir);
  const walk = new Walk(root);
  const folders: DefinitionFolder[] = [];
  for (const folder of DEFINITION_FOLDERS) {
    const isLink = await lstatIsLink(join(root, folder));
    const resolved = await walk.resolve(folder, isLink, [root]);
    if (resolved?.kind !== "dir") continue;
    folders.push(folder);
    await walk.folder(folder, [root, resolved.real]);
  }
  const files = walk.files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { folders, files, warnings: walk.warnings };
}

async function lstatIsLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
