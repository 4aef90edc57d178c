import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface ServerDirOptions {
  /** The directory's package.json; false writes none. Default: { "type": "module" }. */
  packageJson?: Record<string, unknown> | false;
}

const created = new Set<string>();

/**
 * A server directory in the system's temporary folder, with the given files
 * (relative paths) and node_modules links to this repository (as "mcp-dir")
 * and to its zod, so author files import them as a user's would.
 */
export async function createServerDir(
  files: Record<string, string | Uint8Array>,
  options: ServerDirOptions = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-dir-test-"));
  created.add(dir);
  const packageJson = options.packageJson ?? { type: "module" };
  if (packageJson !== false) {
    await writeFile(join(dir, "package.json"), JSON.stringify(packageJson));
  }
  await linkPackages(dir);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

/** node_modules/mcp-dir → this repository, node_modules/zod → its zod. */
export async function linkPackages(dir: string): Promise<void> {
  await mkdir(join(dir, "node_modules"), { recursive: true });
  await symlink(REPO_ROOT, join(dir, "node_modules", "mcp-dir"), "dir");
  await symlink(join(REPO_ROOT, "node_modules", "zod"), join(dir, "node_modules", "zod"), "dir");
}

/**
 * node_modules/<name> → this repository's own copy, for each name: what
 * `npm install` would give a project that depends on it (typescript, @types/node).
 */
export async function linkRepoPackages(dir: string, names: string[]): Promise<void> {
  for (const name of names) {
    const link = join(dir, "node_modules", name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(join(REPO_ROOT, "node_modules", name), link, "dir");
  }
}

/** An empty temporary directory, removed by removeServerDirs. */
export async function createEmptyDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-dir-test-"));
  created.add(dir);
  return dir;
}

/**
 * A copy of example-server that a test may save files into, with the packages
 * its files import; removed by removeServerDirs.
 */
export async function copyExampleServer(): Promise<string> {
  const dir = await createEmptyDir();
  await cp(join(REPO_ROOT, "example-server"), dir, { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  await linkPackages(dir);
  await linkRepoPackages(dir, [
    "valibot",
    "@valibot/to-json-schema",
    "@modelcontextprotocol/ext-apps",
  ]);
  return dir;
}

/** Removes every directory made by this module; call from afterAll. */
export async function removeServerDirs(): Promise<void> {
  const all = [...created];
  created.clear();
  await Promise.all(all.map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * Two real ES module packages for a server directory's node_modules (files for
 * createServerDir): "esm-only", whose exports has only an "import" condition
 * (as estree-walker 3's does), and "tla-package", whose module awaits at its
 * top level.
 */
export const ESM_ONLY_PACKAGES: Record<string, string> = {
  "node_modules/esm-only/package.json": JSON.stringify({
    name: "esm-only",
    version: "1.0.0",
    type: "module",
    exports: { ".": { import: "./index.js" } },
  }),
  "node_modules/esm-only/index.js":
    "export function walk(text) { return 'walked ' + text; }\nexport default function shout(text) { return text.toUpperCase(); }\n",
  "node_modules/tla-package/package.json": JSON.stringify({
    name: "tla-package",
    version: "1.0.0",
    type: "module",
    exports: "./index.js",
  }),
  "node_modules/tla-package/index.js":
    'export const ready = await new Promise((resolve) => setImmediate(() => resolve("ready")));\n',
};
