import type { AuthInfo } from "../define/auth.js";
import type { CompiledResource } from "../define/resource.js";
import { RawJson } from "../jsonrpc/index.js";
import { promptForVersion, resourceForVersion, toolForVersion } from "../protocol/downgrade.js";
import { isViewUri } from "../protocol/ui.js";
import type { Compiled } from "../registry/definition.js";
import type { Registry } from "../registry/registry.js";
import { decodeCursor, paginate } from "./pagination.js";
import { grantedScopes } from "./scope-check.js";
import { toolWithoutViews } from "./view-audience.js";

export type ListKind = "tools" | "prompts" | "resources" | "resourceTemplates";

/** The method that pages each list (what its cursors name). */
export const LIST_METHOD: Readonly<Record<ListKind, string>> = {
  tools: "tools/list",
  prompts: "prompts/list",
  resources: "resources/list",
  resourceTemplates: "resources/templates/list",
};

/** Pages kept at most; past it the cache starts again (callers with many scope sets). */
const MAX_PAGES = 1000;

/** Everything is visible: no verified caller, or no definition needs a scope. */
const EVERYTHING = "*";

/** Who a list is for: the set of scopes that decides what the caller may use, and whether it shows views. */
export interface Audience {
  readonly auth?: AuthInfo | undefined;
  /** The client shows views (MCP Apps): only it gets the views and the tools' links to them. */
  readonly showsViews?: boolean;
}

/**
 * Serialised list pages, per protocol revision, audience and cursor, built
 * once and dropped when the registry changes. The audience is keyed by the
 * scopes a token grants among those any definition needs, not by the token
 * (every caller with the same rights shares the same pages), and by whether
 * the client shows views.
 */
export class ListCache {
  private readonly pages = new Map<string, RawJson>();
  /** Each list as one audience sees it, in wire form. */
  private readonly lists = new Map<string, unknown[]>();
  /** Per kind, whether the list differs for clients that show views. */
  private readonly viewDependent = new Map<ListKind, boolean>();

  constructor(private readonly registry: Registry) {
    registry.onChange(() => this.clear());
  }

  private clear(): void {
    this.pages.clear();
    this.lists.clear();
    this.viewDependent.clear();
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
    audience: Audience = {},
  ): RawJson {
    const scopes = this.scopeKey(audience.auth);
    const showsViews = audience.showsViews ?? false;
    const listKey = `${kind}|${version}|${scopes}|${showsViews ? "views" : "-"}`;
    let items = this.lists.get(listKey);
    if (items === undefined) {
      if (this.pages.size >= MAX_PAGES) this.clear();
      const auth = scopes === EVERYTHING ? undefined : audience.auth;
      items = this.items(kind, version, auth, showsViews);
      this.lists.set(listKey, items);
    }
    // Keyed by the offset, not the cursor string: a cursor is refused unless it is
    // the one string issued for its offset, and an offset past the end is served as
    // the end, so the cache holds at most one page per offset.
    const method = LIST_METHOD[kind];
    const offset = decodeCursor(cursor, method, items.length);
    const key = `${listKey}|${offset}`;
    let page = this.pages.get(key);
    if (page === undefined) {
      const { items: onPage, nextCursor } = paginate(items, offset, pageSize, method);
      const result: Record<string, unknown> = { [kind]: onPage };
      if (nextCursor !== undefined) result.nextCursor = nextCursor;
      if (fields) Object.assign(result, fields);
      page = new RawJson(JSON.stringify(result));
      this.pages.set(key, page);
    }
    return page;
  }

  /**
   * Whether callers may be listed different things: by the token (a verified
   * caller, and definitions that need scopes) or by whether the client shows
   * views (there are views, or tools linked to them). Such a list is
   * "private" (2026-07-28 caching): a shared cache must not serve it to
   * another caller.
   */
  varies(kind: ListKind, auth: AuthInfo | undefined): boolean {
    if (auth !== undefined && this.registry.scopes().declared.length > 0) return true;
    let views = this.viewDependent.get(kind);
    if (views === undefined) {
      views = this.changesWithViews(kind);
      this.viewDependent.set(kind, views);
    }
    return views;
  }

  private changesWithViews(kind: ListKind): boolean {
    const { registry } = this;
    switch (kind) {
      case "tools":
        return registry.tools.some((tool) => {
          const descriptor = registry.toolDescriptor(tool);
          return toolWithoutViews(descriptor) !== descriptor;
        });
      case "resources":
        return (
          registry.views.length > 0 ||
          registry.templates.some((template) => isViewUri(template.template?.template))
        );
      default:
        return false;
    }
  }

  /** The scopes among those in use that the caller holds: what decides what it sees. */
  private scopeKey(auth: AuthInfo | undefined): string {
    if (auth === undefined) return EVERYTHING;
    const { declared } = this.registry.scopes();
    if (declared.length === 0) return EVERYTHING;
    const granted = grantedScopes(auth);
    return `=${declared.filter((scope) => granted.has(scope)).join(" ")}`;
  }

  private items(
    kind: ListKind,
    version: string,
    auth: AuthInfo | undefined,
    showsViews: boolean,
  ): unknown[] {
    const { registry } = this;
    const visible = <T extends Compiled>(list: readonly T[]): readonly T[] =>
      auth === undefined ? list : list.filter((item) => this.allows(item, auth));
    switch (kind) {
      case "tools":
        return visible(registry.tools).flatMap((t) => {
          const tool = showsViews ? registry.toolDescriptor(t) : toolWithoutViews(t.descriptor);
          return tool === undefined ? [] : [toolForVersion(tool, version)];
        });
      case "prompts":
        return visible(registry.prompts).map((p) => promptForVersion(p.descriptor, version));
      case "resources":
        return visible(resourcesFor(registry, showsViews)).map((r) =>
          resourceForVersion(r.descriptor, version),
        );
      case "resourceTemplates":
        return visible(registry.templates).map((r) => resourceForVersion(r.descriptor, version));
    }
  }

  /** Whether a token's scopes cover what a definition needs. */
  allows(compiled: Compiled, auth: AuthInfo | undefined): boolean {
    if (auth === undefined) return true;
    const granted = grantedScopes(auth);
    return this.registry.served(compiled).scopes.every((scope) => granted.has(scope));
  }
}

/** The fixed resources a client is offered: the views only to a client that shows them. */
export function resourcesFor(registry: Registry, showsViews: boolean): readonly CompiledResource[] {
  if (showsViews || registry.views.length === 0) return registry.resources;
  const views = new Set(registry.views);
  return registry.resources.filter((resource) => !views.has(resource));
}
