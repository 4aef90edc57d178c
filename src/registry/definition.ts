import { definitionKind } from "../define/brand.js";
import type { MiddlewareDefinition } from "../define/middleware.js";
import { type CompiledPrompt, compilePrompt, type PromptDefinition } from "../define/prompt.js";
import {
  type CompiledResource,
  compileResource,
  type ResourceDefinition,
} from "../define/resource.js";
import { type CompiledTool, compileTool, type ToolDefinition } from "../define/tool.js";

export type Definition = ToolDefinition | PromptDefinition | ResourceDefinition;
export type Compiled = CompiledTool | CompiledPrompt | CompiledResource;

/**
 * A definition as a source provides it, with the name to use when it gives
 * none; or the middleware of the source's folder (a `_middleware.ts`).
 */
export interface SourceEntry {
  definition: Definition | MiddlewareDefinition;
  fallbackName?: string;
  /** The module export it came from, when a module gave it (`mcp-dir dev --ui` shows it). */
  exportName?: string;
}

export function compile(entry: SourceEntry): Compiled {
  const { definition } = entry;
  const kind = definitionKind(definition);
  // Read the name only once the value is known to be a definition (it may be null).
  const fallback =
    kind === undefined ? "" : (entry.fallbackName ?? (definition as Definition).name ?? "");
  switch (kind) {
    case "tool":
      return compileTool(definition as ToolDefinition, fallback);
    case "prompt":
      return compilePrompt(definition as PromptDefinition, fallback);
    case "resource":
      return compileResource(definition as ResourceDefinition, fallback);
    default:
      throw new TypeError(
        "not a definition: create it with defineTool, definePrompt or defineResource",
      );
  }
}

/** The key that must be unique within a kind, with words for an error message. */
export function identities(compiled: Compiled): { key: string; label: string }[] {
  if (compiled.kind !== "resource") {
    const label = `${compiled.kind === "tool" ? "Tool" : "Prompt"} "${compiled.name}"`;
    return [{ key: `${compiled.kind}:${compiled.name}`, label }];
  }
  const address = compiled.uri ?? compiled.template?.template ?? "";
  return [
    { key: `resource:${compiled.name}`, label: `Resource name "${compiled.name}"` },
    { key: `resource-uri:${address}`, label: `Resource URI "${address}"` },
  ];
}
