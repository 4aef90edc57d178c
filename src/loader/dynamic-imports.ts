import type { TransformOptions } from "esbuild";

/** An import() whose specifier is written as a relative path: `import("./`, `import('../`, … */
const RELATIVE_IMPORT = /\bimport\s*\(\s*["'`]\.{1,2}\//;

/**
 * The options for esbuild's transform of `code` to CommonJS, with import()
 * made require() in a promise when the file imports a module of its own
 * directory that way.
 *
 * A file tsx loads as CommonJS keeps its import() for Node's ES module
 * loader, which has no hook of tsx's (registering them costs every start a
 * hooks thread): it finds no `../lib/helper.js` beside `helper.ts`, and
 * refuses a `.ts`. Made require(), the import loads as the file's static
 * imports do, through tsx's CommonJS hooks, into require.cache, where a save
 * drops it and the file that imported it (ReloadableModules.invalidate).
 * esbuild converts every import() of such a file, a package's too: that one
 * then loads as a static import of it would. A file without one is
 * transformed as before, to the byte.
 */
export function withRelativeImportsRequired(
  code: string,
  options: TransformOptions,
): TransformOptions {
  if (options.format !== "cjs" || !code.includes("import") || !RELATIVE_IMPORT.test(code)) {
    return options;
  }
  return { ...options, supported: { ...options.supported, "dynamic-import": false } };
}
