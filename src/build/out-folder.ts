import { lstat, mkdir, readdir, readlink, realpath, rm, stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { shownPath } from "../bundle/shown-path.js";
import { DEFINITION_FOLDERS, type DefinitionFolder, isSkippedFolder } from "../loader/folders.js";
import { isInsideDir } from "../loader/inside-dir.js";

export const BUNDLE_FILE = "server.mjs";
export const MANIFEST_FILE = "manifest.json";
export const WRANGLER_FILE = "wrangler.toml";

/** Every file `mcp-dir build` writes into its out folder: the only ones it replaces. */
const BUILD_FILES: readonly string[] = [BUNDLE_FILE, MANIFEST_FILE, WRANGLER_FILE];

/**
 * What exists of `path` (itself or its nearest ancestor), and `path` with
 * links resolved that far; or the symbolic link on the way that cannot be
 * resolved (its target missing, or a cycle), and why.
 */
async function existingPart(
  path: string,
): Promise<{ existing: string; real: string } | { link: string; error: NodeJS.ErrnoException }> {
  const rest: string[] = [];
  let existing = path;
  for (;;) {
    try {
      return { existing, real: join(await realpath(existing), ...rest) };
    } catch (error) {
      const isLink = await lstat(existing).then(
        (stats) => stats.isSymbolicLink(),
        () => false,
      );
      if (isLink) return { link: existing, error: error as NodeJS.ErrnoException };
      const parent = dirname(existing);
      if (parent === existing) throw error;
      rest.unshift(basename(existing));
      existing = parent;
    }
  }
}

/** Why the out folder `shown` (`out`) cannot be written through `link`, a link to nothing. */
async function brokenLinkProblem(
  shown: string,
  out: string,
  link: string,
  error: NodeJS.ErrnoException,
): Promise<string> {
  const where = link === out ? `${shown} is` : `${shown} is inside ${shownPath(link)},`;
  if (error.code === "ELOOP") {
    return `${where} a symbolic link that leads back to itself: remove the link, or pass --out another folder`;
  }
  const target = shownPath(resolve(dirname(link), await readlink(link)));
  return `${where} a symbolic link to ${target}, which does not exist: create ${target}, remove the link, or pass --out another folder`;
}

/**
 * The definition folder of the server directory (its real path `realServer`)
 * whose scan would list the files of the folder `real` (a real path), and
 * whether `real` is that folder itself: one that holds it, unless a folder
 * the scan skips (`_x`, `.x`) lies between. A definition folder that is a
 * link counts where it leads too, while that stays inside the server
 * directory (the loader follows it then).
 */
async function scannedFolderAt(
  real: string,
  realServer: string,
): Promise<{ folder: DefinitionFolder; itself: boolean } | undefined> {
  for (const folder of DEFINITION_FOLDERS) {
    const path = join(realServer, folder);
    const target = await realpath(path).catch(() => path);
    for (const place of isInsideDir(realServer, target) ? [path, target] : [path]) {
      if (!isInsideDir(place, real)) continue;
      const between = relative(place, real).split(sep);
      if (!between.some((name) => name !== "" && isSkippedFolder(name))) {
        return { folder, itself: real === place };
      }
    }
  }
  return undefined;
}

/**
 * Why the build of server directory `dir` may not write into `out`, or
 * undefined when it may. The rule: never destroy what the build did not
 * write. `out` is new, an empty folder, or a folder holding a build's output
 * and nothing else (its bundle and manifest, and perhaps a wrangler.toml);
 * never the server directory or a folder that holds it, nor a folder the
 * server loads definitions from (serve would load the bundle), nor a file,
 * nor a symbolic link to nothing.
 */
export async function outFolderProblem(given: string, dir: string): Promise<string | undefined> {
  const out = resolve(given);
  const shown = `the out folder ${shownPath(out)}`;
  const server = resolve(dir);
  const realServer = await realpath(server).catch(() => server);
  const part = await existingPart(out);
  if ("link" in part) return brokenLinkProblem(shown, out, part.link, part.error);
  const { existing, real } = part;
  const own = `pass --out a folder of its own, such as ${shownPath(join(server, "dist-mcp"))}`;
  if (real === realServer) {
    return `${shown} is the server directory: building there would replace its files; ${own}`;
  }
  if (isInsideDir(real, realServer)) {
    return `${shown} holds the server directory ${shownPath(server)}: building there would replace its files; ${own}`;
  }
  const scanned = await scannedFolderAt(real, realServer);
  if (scanned !== undefined) {
    const where = scanned.itself ? "is" : "is inside";
    return `${shown} ${where} the server's ${scanned.folder}/ folder, which it loads definitions from: serve would load the bundle as one; pass --out a folder outside tools/, prompts/, resources/ and views/, such as ${shownPath(join(server, "dist-mcp"))}`;
  }
  const isFolder = (await stat(existing)).isDirectory();
  if (existing !== out) {
    return isFolder
      ? undefined
      : `${shown} is inside ${shownPath(existing)}, a file; pass --out a folder`;
  }
  if (!isFolder) {
    return `${shown} is a file: building there would replace it; remove it, or pass --out a folder`;
  }
  const entries = await readdir(out, { withFileTypes: true });
  const foreign = entries
    .filter((entry) => !(entry.isFile() && BUILD_FILES.includes(entry.name)))
    .map((entry) => entry.name);
  const names = new Set(entries.map((entry) => entry.name));
  const built = foreign.length === 0 && names.has(BUNDLE_FILE) && names.has(MANIFEST_FILE);
  if (entries.length === 0 || built) return undefined;
  const listed = (foreign.length > 0 ? foreign : [...names]).sort();
  const more = listed.length > 3 ? ` and ${listed.length - 3} more` : "";
  return `${shown} holds files the build did not write (${listed.slice(0, 3).join(", ")}${more}): the build writes only into a new or empty folder, or over its own output (${BUILD_FILES.join(", ")}); empty it, or pass --out another folder`;
}

/** Makes `out` (accepted by outFolderProblem) ready: created, or rid of an earlier build's files alone. */
export async function clearOutFolder(out: string): Promise<void> {
  await mkdir(out, { recursive: true });
  await Promise.all(BUILD_FILES.map((file) => rm(join(out, file), { force: true })));
}
