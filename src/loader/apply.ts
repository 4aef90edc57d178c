import type { SourceEntry } from "../registry/definition.js";
import { type Registry, RegistryError } from "../registry/registry.js";
import type { LoadProblem } from "./problems.js";

/**
 * Puts loaded sources into a registry in one atomic update (null removes a
 * source). Sources the registry refuses, such as one defining a name another
 * source already uses, are left out and the rest applied; returns the problems.
 */
export function applyToRegistry(
  registry: Registry,
  updates: ReadonlyMap<string, readonly SourceEntry[] | null>,
): LoadProblem[] {
  const remaining = new Map(updates);
  const problems: LoadProblem[] = [];
  while (remaining.size > 0) {
    try {
      registry.update(remaining);
      break;
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
      for (const { source, message } of error.problems) {
        problems.push({ file: source, message });
        remaining.delete(source);
      }
    }
  }
  return problems;
}
