/**
 * A package loaded when first used, not at start-up: on Node it is required
 * then (or loaded by the function given); a built bundle, which requires
 * nothing at run time, provides it up front instead (and so bundles it).
 */
export class LazyPackage<T> {
  private loaded: T | undefined;

  constructor(
    private readonly specifier: string,
    private readonly load: (specifier: string) => T = requireHere,
  ) {}

  provide(module: T): void {
    this.loaded = module;
  }

  get(): T {
    this.loaded ??= this.load(this.specifier);
    return this.loaded;
  }
}

function requireHere<T>(specifier: string): T {
  const { createRequire } = process.getBuiltinModule("node:module");
  return createRequire(import.meta.url)(specifier) as T;
}
