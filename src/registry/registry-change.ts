import type { CompiledResource } from "../define/resource.js";
import type { UriTemplate } from "../define/uri-template.js";
import type { Compiled } from "./definition.js";

/*
 * What an update of the registry changed, as its listeners hear it: which
 * lists (compared by signature), and which resources may read differently.
 */

export interface RegistryChange {
  /** Kinds whose list, as a client sees it, changed. */
  readonly tools: boolean;
  readonly prompts: boolean;
  readonly resources: boolean;
  /**
   * Fixed resources whose content may have changed: their source was replaced (by
   * new definitions) or removed.
   */
  readonly updatedUris: readonly string[];
  /**
   * URI templates whose source was replaced or removed: every URI they serve
   * may read differently now. Present only when there are some.
   */
  readonly updatedTemplates?: readonly UriTemplate[];
}

type Signatures = { tools: string; prompts: string; resources: string };

export function listSignatures(
  tools: readonly object[],
  prompts: readonly object[],
  resources: readonly object[],
): Signatures {
  const of = (list: readonly object[]) => JSON.stringify(list);
  return { tools: of(tools), prompts: of(prompts), resources: of(resources) };
}

/** The definition behind each fixed resource URI in some lists. */
function fixedResources(lists: readonly (readonly Compiled[])[]): Map<string, unknown> {
  const byUri = new Map<string, unknown>();
  for (const list of lists) {
    for (const item of list) {
      if (item.kind === "resource" && item.uri) byUri.set(item.uri, item.definition);
    }
  }
  return byUri;
}

/**
 * Fixed resources of the updated sources whose content may have changed: all of
 * them, except those served by the very same definition object before and after
 * (re-registering a definition cannot change what it reads).
 */
export function updatedUris(
  before: readonly (readonly Compiled[])[],
  after: readonly (readonly Compiled[])[],
): string[] {
  const was = fixedResources(before);
  const is = fixedResources(after);
  return [...new Set([...was.keys(), ...is.keys()])].filter((uri) => was.get(uri) !== is.get(uri));
}

/**
 * URI templates of the updated sources whose reads may have changed: each
 * one there before or after, unless served by the very same definition object.
 */
export function updatedTemplates(
  before: readonly (readonly Compiled[])[],
  after: readonly (readonly Compiled[])[],
): UriTemplate[] {
  const templates = (lists: readonly (readonly Compiled[])[]) =>
    lists
      .flat()
      .filter(
        (item): item is CompiledResource => item.kind === "resource" && item.template !== undefined,
      );
  const was = templates(before);
  const is = templates(after);
  const still = new Set(is.map((now) => now.definition));
  const kept = new Set(
    was.map((old) => old.definition).filter((definition) => still.has(definition)),
  );
  const byText = new Map<string, UriTemplate>();
  for (const resource of [...was, ...is]) {
    const template = resource.template as UriTemplate;
    if (!kept.has(resource.definition)) byText.set(template.template, template);
  }
  return [...byText.values()];
}
