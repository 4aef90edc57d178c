import type { CompiledResource } from "../define/resource.js";
import { RawJson } from "../jsonrpc/index.js";
import { promptForVersion, resourceForVersion, toolForVersion } from "../protocol/downgrade.js";
import type { Registry } from "../registry/registry.js";
import { decodeCursor, paginate } from "./pagination.js";
import { toolWithoutViews } from "./view-audience.js";

export type ListKind = "tools" | "prompts" | "resources" | "resourceTemplates";

/**
 * Serialised list pages, per protocol revision, audience and cursor, built
 * once and dropped when the registry changes. The audience is whether the
 * client shows views (MCP Apps): only such a client gets the views and the
 * tools' links to them.
 */
export class ListCache {
  private readonly pages = new Map<string, RawJson>();
  /** How many items a list has for a client that shows no views, once counted. */
  private readonly withoutViews = new Map<ListKind, number>();

  constructor(private readonly registry: Registry) {
    registry.onChange(() => {
      this.pages.clear();
      this.withoutViews.clear();
    });
  }

  /**
   * `fields` join every page of that revision (2026-07-28's resultType,
   * caching hints and server identity); they must be the same on every call
   * for one revision.
   */
  page(
    kind: ListKind,
    version: string,
    cursor: string | undefined,
    pageSize: number,
    fields?: Readonly<Record<string, unknown>>,
    showsViews = false,
  ): RawJson {
    // Keyed by the offset, not the cursor string: a cursor is refused unless it is
    // the one string issued for its offset, so the cache holds at most one page per offset.
    const offset = decodeCursor(cursor, this.count(kind, showsViews));
    const key = `${kind}|${version}|${showsViews ? "views" : "-"}|${offset}`;
    let page = this.pages.get(key);
    if (page === undefined) {
      const items = this.items(kind, version, showsViews);
      const { items: pageItems, nextCursor } = paginate(items, offset, pageSize);
      const result: Record<string, unknown> = { [kind]: pageItems };
      if (nextCursor !== undefined) result.nextCursor = nextCursor;
      if (fields) Object.assign(result, fields);
      page = new RawJson(JSON.stringify(result));
      this.pages.set(key, page);
    }
    return page;
  }

  private count(kind: ListKind, showsViews: boolean): number {
    const { registry } = this;
    if (kind === "resourceTemplates") return registry.templates.length;
    if (kind === "prompts") return registry.prompts.length;
    if (showsViews) return registry[kind].length;
    // What is left out for a client that shows no views changes the count: counted as listed, once.
    let count = this.withoutViews.get(kind);
    if (count === undefined) {
      count = this.items(kind, "", false).length;
      this.withoutViews.set(kind, count);
    }
    return count;
  }

  private items(kind: ListKind, version: string, showsViews: boolean): unknown[] {
    const { registry } = this;
    switch (kind) {
      case "tools":
        return registry.tools.flatMap((t) => {
          const tool = showsViews ? registry.toolDescriptor(t) : toolWithoutViews(t.descriptor);
          return tool === undefined ? [] : [toolForVersion(tool, version)];
        });
      case "prompts":
        return registry.prompts.map((p) => promptForVersion(p.descriptor, version));
      case "resources":
        return resourcesFor(registry, showsViews).map((r) =>
          resourceForVersion(r.descriptor, version),
        );
      case "resourceTemplates":
        return registry.templates.map((r) => resourceForVersion(r.descriptor, version));
    }
  }
}

/** The fixed resources a client is offered: the views only to a client that shows them. */
export function resourcesFor(registry: Registry, showsViews: boolean): readonly CompiledResource[] {
  if (showsViews || registry.views.length === 0) return registry.resources;
  const views = new Set(registry.views);
  return registry.resources.filter((resource) => !views.has(resource));
}
