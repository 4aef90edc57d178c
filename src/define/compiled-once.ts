/** What each definition compiled to, by the name it was compiled under. */
const compiled = new WeakMap<object, Map<string, unknown>>();

/**
 * Compiles `definition` under `name` once: defineTool checks a named
 * definition, the loader validates what a file exports, the registry serves
 * it, and each gets what the first made. A definition that fails is compiled
 * again (and fails again) when asked, so its error is thrown each time.
 */
export function compiledOnce<C>(definition: object, name: unknown, compile: () => C): C {
  if (typeof name !== "string") return compile();
  let byName = compiled.get(definition);
  if (byName?.has(name)) return byName.get(name) as C;
  const result = compile();
  if (!byName) {
    byName = new Map();
    compiled.set(definition, byName);
  }
  byName.set(name, result);
  return result;
}
