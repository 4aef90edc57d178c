import { stampOf } from "./file-stamps.js";
import { HELPERS, shareHelpers } from "./shared-helpers.js";
import type { TransformStore } from "./transform-store.js";

type LoadExtension = (this: unknown, module: unknown, filename: string) => unknown;

/** What a CommonJS extension handler is given: Node's Module, as far as this uses it. */
interface CompilingModule {
  exports: unknown;
  _compile(code: string, filename: string): unknown;
}

/**
 * `load` (tsx's handler for an extension) with a store in front, for the files
 * `storeOf` gives one: a file the store holds as it is compiles from there;
 * any other goes through `load`, and what tsx compiles it to is kept (unless
 * tsx did more than compile it: swapped its exports for a `module.exports`
 * export, which only tsx's own path does).
 */
export function compileFromStore(
  load: LoadExtension,
  storeOf: (filename: string) => TransformStore | undefined,
): LoadExtension {
  return function (this: unknown, module, filename) {
    const store = storeOf(filename);
    if (store === undefined) return load.call(this, module, filename);
    const compiling = module as CompilingModule;
    const code = store.take(filename);
    if (code !== undefined) return compileSharing(compiling, code, filename);
    const began = Date.now();
    const stamp = stampOf(filename);
    let compiled: { code: string; exports: unknown } | undefined;
    const compile = compiling._compile;
    const ownCompile = Object.hasOwn(compiling, "_compile");
    compiling._compile = function (this: CompilingModule, code, file) {
      if (file !== filename) return compile.call(this, code, file);
      const result = compileSharing(this, code, filename, compile);
      compiled = { code, exports: this.exports };
      return result;
    };
    let result: unknown;
    try {
      result = load.call(this, module, filename);
    } finally {
      if (ownCompile) compiling._compile = compile;
      else delete (compiling as Partial<CompilingModule>)._compile;
    }
    if (compiled && compiled.exports === compiling.exports) {
      store.keep(filename, stamp, compiled.code, began);
    }
    return result;
  };
}

/**
 * Compiles `code` with `compile` (the module's own), its esbuild helpers made
 * once for every file that has the same (shared-helpers.ts): a file the store
 * holds and one tsx has just compiled run the same code.
 */
function compileSharing(
  module: CompilingModule,
  code: string,
  filename: string,
  compile = module._compile,
): unknown {
  const shared = shareHelpers(code);
  if (shared === undefined) return compile.call(module, code, filename);
  const holder = module as CompilingModule & { [HELPERS]?: unknown };
  holder[HELPERS] = shared.helpers;
  try {
    return compile.call(module, shared.code, filename);
  } finally {
    delete holder[HELPERS];
  }
}
