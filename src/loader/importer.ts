import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";

export type ModuleNamespace = Readonly<Record<string, unknown>>;

/**
 * Imports author files with tsx, so `.ts`/`.mts` need no build. One importer is
 * one tsx namespace (what `tsImport` creates per call): files imported through
 * it share their dependencies, so zod and mcp-dir load once per importer, while
 * a new importer sees a fresh copy of every file. Loading a directory uses one
 * importer; reloading a changed file uses a new one.
 */
export interface ModuleImporter {
  import(absolutePath: string): Promise<ModuleNamespace>;
}

export function createImporter(): ModuleImporter {
  let importEsm: ((specifier: string, parent: string) => Promise<unknown>) | undefined;
  return {
    async import(absolutePath) {
      if (importEsm === undefined) {
        // Loaded on first use: `import "mcp-dir"` for createServer alone never pays for tsx.
        const [commonJs, esm] = await Promise.all([import("tsx/cjs/api"), import("tsx/esm/api")]);
        const namespace = randomUUID();
        // Like tsImport: the CommonJS hooks serve files of packages without "type": "module".
        commonJs.register({ namespace });
        importEsm = esm.register({ namespace }).import;
      }
      const url = pathToFileURL(absolutePath).href;
      return unwrapCommonJs((await importEsm(url, import.meta.url)) as ModuleNamespace);
    },
  };
}

/**
 * A TypeScript file in a package without "type": "module" runs as CommonJS:
 * its namespace's `default` is `module.exports`, which holds the real exports.
 */
function unwrapCommonJs(namespace: ModuleNamespace): ModuleNamespace {
  const exports = namespace.default;
  if (
    typeof exports === "object" &&
    exports !== null &&
    (exports as { __esModule?: unknown }).__esModule === true
  ) {
    return exports as ModuleNamespace;
  }
  return namespace;
}
