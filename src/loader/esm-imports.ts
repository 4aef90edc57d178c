import { sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isEsmFile } from "./commonjs-hooks.js";
import { asEsModule, registerFormatHook } from "./esm-format-hook.js";
import type { ModuleNamespace } from "./esm-packages.js";

/** A file's import as an ES module: the files of the directory it loaded, its keys in require.cache. */
interface EsmLoad {
  imports: Set<string>;
  required: string[];
}

/**
 * The files of a directory imported as ES modules (those with top-level
 * await, through tsx's tsImport), with what require.cache does not show of
 * each load: the files of the directory it imported, so a save of one reloads
 * it, and the keys it added to require.cache, dropped with it.
 */
export class EsmImports {
  private readonly loads = new Map<string, EsmLoad>();

  constructor(
    private readonly cache: Record<string, unknown>,
    private readonly inDir: (path: string) => boolean,
  ) {}

  async import(absolutePath: string): Promise<ModuleNamespace> {
    // Only needed for a file with top-level await: not worth loading up front.
    const { tsImport } = await import("tsx/esm/api");
    const url = pathToFileURL(absolutePath).href;
    // Below the hooks tsImport registers, which must see what it marks and resolves.
    registerFormatHook();
    const specifier = isEsmFile(absolutePath) ? url : asEsModule(url);
    const load: EsmLoad = { imports: new Set(), required: [] };
    this.loads.set(absolutePath, load);
    const add = (path: string) => {
      if (path !== absolutePath && this.inDir(path)) load.imports.add(path);
    };
    // What tsx names outside the directory and node_modules is a helper imported by a path:
    // the packages a file imports go to a namespace of their own (esm-format-hook.ts).
    const addImported = (path: string) => {
      if (this.inDir(path)) add(path);
      else if (!path.split(sep).includes("node_modules")) load.imports.add(path);
    };
    // tsx names each file it loads as an ES module. A file that is CommonJS
    // there (outside an ES module package) is required, and what it requires
    // lands in require.cache under this import's namespace, `path?namespace=…`:
    // the new keys of that kind (of this import, or of one beside it: a file
    // too many may be reloaded, never one too few).
    const before = new Set(Object.keys(this.cache));
    const onImport = (url: string) => {
      if (url.startsWith("file:")) addImported(fileURLToPath(url.replace(/[?#].*$/, "")));
    };
    try {
      return (await tsImport(specifier, {
        parentURL: import.meta.url,
        onImport,
      })) as ModuleNamespace;
    } finally {
      for (const id of Object.keys(this.cache)) {
        if (before.has(id) || !id.includes("?namespace=")) continue;
        load.required.push(id);
        if (!id.startsWith("data:")) add(id.slice(0, id.indexOf("?")));
      }
    }
  }

  /** The files imported as ES modules that imported any of `changed` (themselves aside). */
  importersOf(changed: readonly string[]): string[] {
    const found: string[] = [];
    for (const [file, { imports }] of this.loads) {
      if (changed.some((path) => path !== file && imports.has(path))) found.push(file);
    }
    return found;
  }

  /** The helpers outside the directory that the files imported as ES modules imported. */
  get outsideHelpers(): string[] {
    const found = new Set<string>();
    for (const { imports } of this.loads.values()) {
      for (const path of imports) if (!this.inDir(path)) found.add(path);
    }
    return [...found];
  }

  get files(): string[] {
    return [...this.loads.keys()];
  }

  /** Forgets the load of `file`, and what it added to require.cache. */
  forget(file: string): void {
    const load = this.loads.get(file);
    if (!load) return;
    this.loads.delete(file);
    // Node finds a relative require in its cache by folder, not namespace:
    // what this load required would stand in for the next load's files.
    for (const id of load.required) delete this.cache[id];
  }
}
