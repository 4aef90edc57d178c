import { isAbsolute, parse, relative } from "node:path";

/**
 * `path` as the user reads it: from the current directory when inside it
 * (not from the root, where `srv/server.mjs` would read as a relative path).
 */
export function shownPath(path: string): string {
  const cwd = process.cwd();
  const from = relative(cwd, path);
  const outside = from === "" || from.startsWith("..") || isAbsolute(from);
  return outside || cwd === parse(cwd).root ? path : from;
}
