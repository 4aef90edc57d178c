import type Module from "node:module";
import { dirname } from "node:path";
import { NodeModule } from "./node-module.js";

export type ModuleNamespace = Readonly<Record<string, unknown>>;

type NativeImport = (specifier: string) => Promise<ModuleNamespace>;

/**
 * import() by Node's own loader, as if written in the author file `importer`:
 * a CommonJS module made here under its filename (never cached as it), so a
 * package resolves from there with Node's ES module resolution ("import"
 * conditions), and a failure names that file. No
 * loader hook is needed, which would put every later import of the process
 * through a hooks thread; and a test runner or bundler that rewrites this
 * module's import() (vitest does) cannot change what it resolves.
 */
function makeNativeImport(filename: string): NativeImport {
  const holder = new NodeModule(filename) as Module & {
    _compile(source: string, filename: string): void;
  };
  holder.filename = filename;
  holder._compile("module.exports = (specifier) => import(specifier);", filename);
  return holder.exports as NativeImport;
}

const nativeImports = new Map<string, NativeImport>();

function nativeImportFrom(importer: string): NativeImport {
  let nativeImport = nativeImports.get(importer);
  if (nativeImport === undefined) {
    nativeImport = makeNativeImport(importer);
    nativeImports.set(importer, nativeImport);
  }
  return nativeImport;
}

/**
 * Thrown by require() in a compiled author file for a package not imported
 * yet: the importer imports it (asynchronously) and loads the file again.
 * Compiled files require their imports before their own code runs, so no
 * author code of the file ran twice.
 */
export class PackageNeeded extends Error {
  constructor(
    readonly specifier: string,
    readonly importer: string,
  ) {
    super(`Cannot load '${specifier}' imported from ${importer} before it is imported`);
    this.name = "PackageNeeded";
  }
}

/** A bare specifier names a package: not a relative or absolute path, not `#imports`, not node:. */
export function isPackageSpecifier(request: string): boolean {
  return !/^(?:[./#\\]|[a-zA-Z]:|node:)/.test(request);
}

/**
 * The packages that author files written as ES modules import, imported with
 * Node's ES module loader (so an `exports` with only "import", or a module with
 * top-level await, loads as with plain Node) and shared for the process: a
 * package loads once, whatever reloads.
 */
export class EsmPackages {
  /** What require() hands a compiled file, by the file's folder and the specifier. */
  private readonly loaded = new Map<string, unknown>();

  private key(specifier: string, importer: string): string {
    return `${dirname(importer)}\0${specifier}`;
  }

  /** Whether `specifier`, as `importer` names it, is imported. */
  has(specifier: string, importer: string): boolean {
    return this.loaded.has(this.key(specifier, importer));
  }

  /** What the compiled file `importer` gets for `require(specifier)`, or a PackageNeeded to throw. */
  required(specifier: string, importer: string): unknown {
    const key = this.key(specifier, importer);
    if (!this.loaded.has(key)) throw new PackageNeeded(specifier, importer);
    return this.loaded.get(key);
  }

  async import(needed: PackageNeeded): Promise<void> {
    const { specifier, importer } = needed;
    let namespace: ModuleNamespace;
    try {
      namespace = await nativeImportFrom(importer)(specifier);
    } catch (error) {
      // Node's frames are its loader's: add the import's place in the author file.
      if (error instanceof Error) {
        error.stack = `${error.stack}\n${needed.stack?.split("\n").slice(1).join("\n")}`;
      }
      throw error;
    }
    this.loaded.set(this.key(specifier, importer), asRequired(namespace));
  }
}

/**
 * What Node's require(esm) returns, for code compiled from ES module syntax:
 * the namespace, marked `__esModule` when it has a default export so that the
 * compiled `import x from` reads `default` (a CommonJS package's namespace has
 * its `module.exports` as default). Getters keep the bindings live.
 */
function asRequired(namespace: ModuleNamespace): unknown {
  const required: Record<string, unknown> = {};
  for (const name of Object.keys(namespace)) {
    Object.defineProperty(required, name, { enumerable: true, get: () => namespace[name] });
  }
  if ("default" in namespace) Object.defineProperty(required, "__esModule", { value: true });
  return required;
}
