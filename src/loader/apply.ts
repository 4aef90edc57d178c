import type { SourceEntry } from "../registry/definition.js";
import { type Registry, RegistryError } from "../registry/registry.js";
import type { LoadProblem } from "./problems.js";

/**
 * Puts loaded sources into a registry in one atomic update (null removes a
 * source). Returns the problems the registry found across files, such as two
 * definitions with one name; then nothing was changed.
 */
export function applyToRegistry(
  registry: Registry,
  updates: ReadonlyMap<string, readonly SourceEntry[] | null>,
): LoadProblem[] {
  try {
    registry.update(updates);
    return [];
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    return error.problems.map(({ source, message }) => ({ file: source, message }));
  }
}
