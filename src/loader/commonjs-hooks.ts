import { readFileSync } from "node:fs";
import { dirname, extname, join, sep } from "node:path";
import type * as TsxCommonJs from "tsx/cjs/api";
import { compileFromStore } from "./compile-from-store.js";
import { EsmPackages, isPackageSpecifier } from "./esm-packages.js";
import { NodeModule as Module } from "./node-module.js";
import { ownCodeFolder } from "./own-code.js";
import { type Speculation, speculativeTransforms } from "./speculative-transforms.js";
import { type TransformStore, transformStoreFor } from "./transform-store.js";

/*
 * The process-wide CommonJS hooks through which ReloadableModules loads author
 * files: tsx's transforms, and Node's ES module loader for the packages an
 * author file written as an ES module imports.
 */

type LoadExtension = (this: unknown, module: unknown, filename: string) => unknown;
type Parent = { filename?: string; loaded?: boolean } | undefined;
type LoadRequest = (request: string, parent: Parent, isMain: boolean) => unknown;
type ResolveRequest = (request: string, parent: Parent, isMain: boolean) => string;

let registered = false;
/** tsx's transforms made ahead, for a directory's first load (set by register()). */
export let speculation: Speculation | undefined;
const requireHere = Module.createRequire(import.meta.url);
/** The directories whose files are author code (`dir/`), for every ReloadableModules made, with their stores (made at first use). */
const authorDirs = new Map<string, TransformStore | null | undefined>();
/** Whether the package.json nearest to a directory says "type": "module". */
const moduleScopes = new Map<string, boolean>();

function isModuleScope(dir: string): boolean {
  const known = moduleScopes.get(dir);
  if (known !== undefined) return known;
  let isModule: boolean;
  try {
    isModule =
      (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { type?: unknown }).type ===
      "module";
  } catch (error) {
    const parent = dirname(dir);
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    isModule = missing && parent !== dir ? isModuleScope(parent) : false;
  }
  moduleScopes.set(dir, isModule);
  return isModule;
}

/**
 * Files outside every author directory, and outside every node_modules, that
 * author code (or another such file) requires by a path rather than a package
 * name: helpers shared from outside the directory, a monorepo's say. They
 * are author code to reload (ReloadableModules.outsideHelpers), never a
 * package (mcp-dir linked into node_modules is outside them too, but named).
 */
export const outsideHelpers = new Set<string>();

/** Packages of the process, shared by every ReloadableModules. */
export const packages = new EsmPackages();

/** Whether Node would run `filename` as an ES module (its extension, else its package.json). */
export function isEsmFile(filename: string): boolean {
  const extension = extname(filename);
  if (extension === ".mjs" || extension === ".mts") return true;
  if (extension === ".cjs" || extension === ".cts") return false;
  return isModuleScope(dirname(filename));
}

/** mcp-dir's own code (`dist/` or `src/`), which a server directory may hold: not author code (set by register()). */
let ownCode: string | undefined;

/** The author directory (`dir/`) holding `filename`, if it is author code. */
function authorDirOf(filename: string): string | undefined {
  if (ownCode !== undefined && filename.startsWith(ownCode)) return undefined;
  for (const prefix of authorDirs.keys()) {
    if (
      filename.startsWith(prefix) &&
      !filename.slice(prefix.length).includes(`node_modules${sep}`)
    )
      return prefix;
  }
  return undefined;
}

function isAuthorCode(filename: string): boolean {
  return authorDirOf(filename) !== undefined;
}

/** Author code, or a helper outside the directory: code that a save loads afresh. */
function isReloadedCode(filename: string): boolean {
  return isAuthorCode(filename) || outsideHelpers.has(filename);
}

/** The transform store of the directory holding `filename`, if it is author code and caching is on. */
function storeOf(filename: string): TransformStore | undefined {
  const prefix = authorDirOf(filename);
  if (prefix === undefined || filename.includes("?")) return undefined;
  let store = authorDirs.get(prefix);
  if (store === undefined) {
    store = transformStoreFor(prefix.slice(0, -1)) ?? null;
    authorDirs.set(prefix, store);
  }
  return store ?? undefined;
}

/**
 * Registers tsx's CommonJS hooks, once per process. A package's ES module
 * (mcp-dir itself, say) is left to Node's own require(esm) where Node has it:
 * tsx would compile it and its whole import tree to CommonJS, a second copy
 * of each (measured: +100 ms and megabytes at startup for mcp-dir alone),
 * where Node hands over the instance that `import` already loaded.
 */
function register(): void {
  if (registered) return;
  registered = true;
  ownCode = ownCodeFolder();
  const loader = Module as unknown as { _load: LoadRequest; _resolveFilename: ResolveRequest };
  /**
   * A tsconfig "paths" alias (which tsx resolves) names a file of the directory,
   * not a package. Resolving is the costly part of loading many small files
   * (every file imports "mcp-dir" and "zod"): the answer is kept per folder.
   */
  const aliases = new Map<string, boolean>();
  const isAlias = (request: string, parent: Parent) => {
    const key = `${parent?.filename === undefined ? "" : dirname(parent.filename)}\0${request}`;
    let alias = aliases.get(key);
    if (alias === undefined) {
      try {
        alias = isAuthorCode(loader._resolveFilename(request, parent, false));
      } catch {
        alias = false;
      }
      aliases.set(key, alias);
    }
    return alias;
  };
  const load = loader._load;
  // An author file (or a helper outside the directory) written as an ES module
  // gets its packages from Node's ES module loader: one copy for every such file.
  loader._load = function (this: unknown, request, parent, isMain) {
    const from = parent?.filename;
    if (
      from !== undefined &&
      isPackageSpecifier(request) &&
      !Module.isBuiltin(request) &&
      isReloadedCode(from) &&
      isEsmFile(from) &&
      !isAlias(request, parent)
    ) {
      // Once the file has loaded, a require is an import() made require() (see
      // dynamic-imports.ts), which cannot wait for a package to be imported: it requires it.
      if (parent?.loaded !== true || packages.has(request, from)) {
        return packages.required(request, from);
      }
    }
    if (from !== undefined && !isPackageSpecifier(request) && isReloadedCode(from)) {
      noteOutsideHelper(loader, request, parent);
    }
    return load.call(this, request, parent, isMain);
  };
  const extensions = (Module as unknown as { _extensions: Record<string, LoadExtension> })
    ._extensions;
  const before = { ...extensions };
  const native = extensions[".js"];
  // Speculation wraps esbuild before tsx (its CommonJS build) requires it.
  speculation = speculativeTransforms();
  (requireHere("tsx/cjs/api") as typeof TsxCommonJs).register();
  const compiled = extensions[".js"];
  const requireModule = (process.features as { require_module?: boolean }).require_module;
  if (native && compiled && native !== compiled && requireModule === true) {
    extensions[".js"] = function (this: unknown, module: unknown, filename: string) {
      return (isPackageModule(filename) ? native : compiled).call(this, module, filename);
    };
  }
  // tsx sets some of its handlers as properties that are not enumerable.
  for (const extension of Object.getOwnPropertyNames(extensions)) {
    const load = extensions[extension];
    if (load && load !== before[extension]) extensions[extension] = compileFromStore(load, storeOf);
  }
}

/**
 * A package's `.js` file that Node runs as an ES module: Node's require(esm)
 * hands over the instance `import` loads. Not author code, nor a helper
 * outside the directory (those are compiled, so that a save reloads them),
 * nor any other extension: each tsImport (top-level await) adds tsx hooks
 * that pass every file outside their namespace to the ".js" handler, `.ts`
 * helpers among them, which Node's ES module loader cannot read.
 */
function isPackageModule(filename: string): boolean {
  return (
    extname(filename) === ".js" && !isReloadedCode(filename) && isModuleScope(dirname(filename))
  );
}

/**
 * Adds the file a path required from author code resolves to, if it is
 * outside every author directory and node_modules, to outsideHelpers: before
 * it loads, so that what it requires is seen as required from a helper. The
 * load resolves it again from Node's cache (and meets the error, if any).
 */
function noteOutsideHelper(
  loader: { _resolveFilename: ResolveRequest },
  request: string,
  parent: Parent,
): void {
  let filename: string;
  try {
    filename = loader._resolveFilename(request, parent, false);
  } catch {
    return;
  }
  if (!isAuthorCode(filename) && !filename.split(sep).includes("node_modules")) {
    outsideHelpers.add(filename);
  }
}

/** Makes the files under `dir` author code, loaded through the hooks (registered once). */
export function hookAuthorDir(dir: string): void {
  const prefix = `${dir}${sep}`;
  if (!authorDirs.has(prefix)) authorDirs.set(prefix, undefined);
  register();
}
