import { sep } from "node:path";

/** True when the absolute path `path` is `dir` or lies under it. */
export function isInsideDir(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
