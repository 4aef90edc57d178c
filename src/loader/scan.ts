import { stat } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { DEFINITION_FOLDERS, type DefinitionFolder } from "./folders.js";

export interface ScanResult {
  /** The definition folders that exist, in the order tools, prompts, resources. */
  readonly folders: DefinitionFolder[];
  /** Every file to load, relative to the server directory, "/" separators, sorted. */
  readonly files: string[];
}

/**
 * Files the loader never imports: helpers and private folders (`_x`), hidden
 * files (`.x`), tests (`x.test.ts`, `x.spec.ts`), type declarations (`x.d.ts`).
 */
export function isSkipped(relativePath: string): boolean {
  const segments = relativePath.split("/");
  const base = segments[segments.length - 1] ?? "";
  return (
    segments.some((s) => s.startsWith("_") || s.startsWith(".") || s === "node_modules") ||
    /\.(test|spec)\.[^.]+$/.test(base) ||
    /\.d\.[cm]?ts$/.test(base)
  );
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Lists the files of a server directory in a stable order (same tree, same list). */
export async function scanDirectory(dir: string): Promise<ScanResult> {
  const folders: DefinitionFolder[] = [];
  for (const folder of DEFINITION_FOLDERS) {
    if (await isDirectory(join(dir, folder))) folders.push(folder);
  }
  if (folders.length === 0) return { folders, files: [] };
  const found = await fg(
    folders.map((folder) => `${folder}/**/*`),
    { cwd: dir, onlyFiles: true, dot: false, followSymbolicLinks: true, unique: true },
  );
  const files = found.filter((file) => !isSkipped(file));
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { folders, files };
}
