import { RawJson } from "../jsonrpc/index.js";
import { promptForVersion, resourceForVersion, toolForVersion } from "../protocol/downgrade.js";
import type { Registry } from "../registry/registry.js";
import { decodeCursor, paginate } from "./pagination.js";

export type ListKind = "tools" | "prompts" | "resources" | "resourceTemplates";

/**
 * Serialised list pages, per protocol revision and cursor, built once and
 * dropped when the registry changes.
 */
export class ListCache {
  private readonly pages = new Map<string, RawJson>();

  constructor(private readonly registry: Registry) {
    registry.onChange(() => this.pages.clear());
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
  ): RawJson {
    // Keyed by the offset, not the cursor string: a cursor is refused unless it is
    // the one string issued for its offset, so the cache holds at most one page per offset.
    const offset = decodeCursor(cursor, this.count(kind));
    const key = `${kind}|${version}|${offset}`;
    let page = this.pages.get(key);
    if (page === undefined) {
      const { items, nextCursor } = paginate(this.items(kind, version), offset, pageSize);
      const result: Record<string, unknown> = { [kind]: items };
      if (nextCursor !== undefined) result.nextCursor = nextCursor;
      if (fields) Object.assign(result, fields);
      page = new RawJson(JSON.stringify(result));
      this.pages.set(key, page);
    }
    return page;
  }

  private count(kind: ListKind): number {
    const { registry } = this;
    if (kind === "resourceTemplates") return registry.templates.length;
    return registry[kind].length;
  }

  private items(kind: ListKind, version: string): unknown[] {
    const { registry } = this;
    switch (kind) {
      case "tools":
        return registry.tools.map((t) => toolForVersion(t.descriptor, version));
      case "prompts":
        return registry.prompts.map((p) => promptForVersion(p.descriptor, version));
      case "resources":
        return registry.resources.map((r) => resourceForVersion(r.descriptor, version));
      case "resourceTemplates":
        return registry.templates.map((r) => resourceForVersion(r.descriptor, version));
    }
  }
}
