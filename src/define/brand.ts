/**
 * Definitions are recognised by a brand, not `instanceof`: a reloaded module or a
 * second copy of this package must still be understood.
 */
export const DEFINITION_BRAND: unique symbol = Symbol.for("mcp-dir.definition") as never;

export type DefinitionKind = "tool" | "prompt" | "resource";

export interface Branded<K extends DefinitionKind> {
  readonly [DEFINITION_BRAND]: K;
}

export function definitionKind(value: unknown): DefinitionKind | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const kind = (value as Record<symbol, unknown>)[DEFINITION_BRAND];
  return kind === "tool" || kind === "prompt" || kind === "resource" ? kind : undefined;
}

export function brand<K extends DefinitionKind, T extends object>(
  kind: K,
  value: T,
): T & Branded<K> {
  return Object.defineProperty(value, DEFINITION_BRAND, { value: kind, enumerable: false }) as T &
    Branded<K>;
}
