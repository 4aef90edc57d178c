/**
 * A package loaded when first used, not at start-up: on Node it is required
 * then; a built bundle, which requires nothing at run time, provides it up
 * front instead (and so bundles it).
 */
export class LazyPackage<T> {
  private loaded: T | undefined;

  constructor(private readonly specifier: string) {}

  provide(module: T): void {
    this.loaded = module;
  }

  get(): T {
    if (this.loaded === undefined) {
      const { createRequire } = process.getBuiltinModule("node:module");
      this.loaded = createRequire(import.meta.url)(this.specifier) as T;
    }
    return this.loaded;
  }
}
