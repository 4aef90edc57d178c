/**
 * Files the loader builds from others rather than imports (views, which
 * esbuild bundles for the browser), each with what it was built from, so
 * that a change to any of those builds it again. Paths are absolute.
 */
export class BuildInputs {
  private readonly inputsOf = new Map<string, ReadonlySet<string>>();

  record(file: string, inputs: readonly string[]): void {
    this.inputsOf.set(file, new Set([file, ...inputs]));
  }

  /** What the built files were made from that `inDir` says is outside the directory. */
  inputsOutside(inDir: (path: string) => boolean): string[] {
    const outside = new Set<string>();
    for (const inputs of this.inputsOf.values()) {
      for (const input of inputs) if (!inDir(input)) outside.add(input);
    }
    return [...outside];
  }

  /** The built files made from any of `changed`. */
  builtFrom(changed: ReadonlySet<string>): string[] {
    const built: string[] = [];
    for (const [file, inputs] of this.inputsOf) {
      for (const input of inputs) {
        if (changed.has(input)) {
          built.push(file);
          break;
        }
      }
    }
    return built;
  }
}
