import type { SourceEntry } from "../registry/definition.js";
import { type Registry, type RegistryChange, RegistryError } from "../registry/registry.js";
import type { LoadProblem } from "./problems.js";

export type SourceUpdates = Map<string, readonly SourceEntry[] | null>;

/**
 * Makes one registry update of `updates` (null removes a source). Sources the
 * registry refuses, such as one defining a name another source already uses,
 * are deleted from `updates`, so what is left is what was applied; returns
 * the change and the refusals.
 */
export function applyWhatFits(
  registry: Registry,
  updates: SourceUpdates,
): { change: RegistryChange | undefined; problems: LoadProblem[] } {
  const problems: LoadProblem[] = [];
  while (updates.size > 0) {
    try {
      return { change: registry.update(updates), problems };
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
      for (const { source, message } of error.problems) {
        problems.push({ file: source, message });
        updates.delete(source);
      }
    }
  }
  return { change: undefined, problems };
}

/**
 * Puts loaded sources into a registry in one atomic update (null removes a
 * source). Sources the registry refuses, such as one defining a name another
 * source already uses, are left out and the rest applied; returns the problems.
 */
export function applyToRegistry(
  registry: Registry,
  updates: ReadonlyMap<string, readonly SourceEntry[] | null>,
): LoadProblem[] {
  return applyWhatFits(registry, new Map(updates)).problems;
}
