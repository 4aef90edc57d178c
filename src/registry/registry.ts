import {
  isMiddlewareDefinition,
  type MiddlewareDefinition,
  middlewareProblem,
} from "../define/middleware.js";
import type { CompiledPrompt } from "../define/prompt.js";
import type { CompiledResource } from "../define/resource.js";
import type { CompiledTool } from "../define/tool.js";
import { toolUi } from "../define/tool-ui.js";
import type { Tool } from "../protocol/types.js";
import { handlerChannel } from "../tracing/channels.js";
import { type Compiled, compile, identities, type SourceEntry } from "./definition.js";
import {
  listSignatures,
  type RegistryChange,
  updatedTemplates,
  updatedUris,
} from "./registry-change.js";
import { folderOfSource, type Served, scopeUnion, servedDefinitions, UNWRAPPED } from "./served.js";
import { tracedChain } from "./traced-chain.js";
import { linkViews, viewsAmong } from "./view-links.js";

export type { RegistryChange } from "./registry-change.js";

/** Every problem found while applying an update; nothing was changed. */
export class RegistryError extends Error {
  readonly problems: { source: string; message: string }[];

  constructor(problems: { source: string; message: string }[]) {
    super(problems.map((p) => `${p.source}: ${p.message}`).join("\n"));
    this.name = "RegistryError";
    this.problems = problems;
  }
}

export type RegistryListener = (change: RegistryChange) => void;

const byName = (a: { name: string }, b: { name: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** A template's text outside its expressions: the more, the fewer URIs it matches. */
const literalLength = (resource: CompiledResource): number =>
  (resource.template?.template ?? "").replace(/\{[^}]*\}/g, "").length;

/**
 * The live set of definitions, keyed by the source (usually a file) that
 * provided them. A source's definitions are replaced or removed together, and
 * every update is all-or-nothing: a source that fails keeps its last good definitions.
 */
export class Registry {
  private readonly bySource = new Map<string, Compiled[]>();
  /** The middleware of each `_middleware` source; its folder is the source's. */
  private readonly middlewareBySource = new Map<string, MiddlewareDefinition>();
  /** The server's own middleware, around every folder's. */
  private serverMiddleware: readonly MiddlewareDefinition[] = [];
  private servedMap = new Map<Compiled, Served>();
  /** The same, publishing each middleware and handler run: composed when first traced. */
  private tracedMap: Map<Compiled, Served> | undefined;
  private scopeSummary: ReturnType<Registry["scopes"]> | undefined;
  private readonly owners = new Map<string, string>();
  /** The module export each definition came from, when it came from one. */
  private readonly exportNames = new WeakMap<Compiled, string>();
  private readonly listeners = new Set<RegistryListener>();
  private toolMap = new Map<string, CompiledTool>();
  private promptMap = new Map<string, CompiledPrompt>();
  private resourceMap = new Map<string, CompiledResource>();
  private templateList: CompiledResource[] = [];
  /** The templates in the order they are tried: the most literal text first, then by name. */
  private matchOrder: CompiledResource[] = [];
  private sortedTools: CompiledTool[] = [];
  private sortedPrompts: CompiledPrompt[] = [];
  private sortedResources: CompiledResource[] = [];
  private sortedViews: CompiledResource[] = [];
  /** Tools a view shows by convention (named like it), with the descriptor that says so. */
  private linkedTools = new Map<CompiledTool, Tool>();
  /** The lists as clients see them, to tell whether an update changed any. */
  private signatures = listSignatures([], [], []);

  onChange(listener: RegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  replaceSource(source: string, entries: readonly SourceEntry[]): RegistryChange {
    return this.update(new Map([[source, entries]]));
  }

  removeSource(source: string): RegistryChange {
    return this.update(new Map([[source, null]]));
  }

  /**
   * Applies several sources at once (null removes one), emitting one change.
   * Throws RegistryError naming every problem if any source is invalid.
   */
  update(updates: ReadonlyMap<string, readonly SourceEntry[] | null>): RegistryChange {
    const problems: { source: string; message: string }[] = [];
    const next = new Map<string, Compiled[]>();
    const nextMiddleware = new Map<string, MiddlewareDefinition | undefined>();
    for (const [source, entries] of updates) {
      nextMiddleware.set(source, undefined);
      if (entries === null) continue;
      const compiled: Compiled[] = [];
      for (const entry of entries) {
        const { definition } = entry;
        if (isMiddlewareDefinition(definition)) {
          const problem = nextMiddleware.get(source)
            ? "gives more than one middleware; export one (compose them in it)"
            : middlewareProblem(definition);
          if (problem !== undefined) problems.push({ source, message: problem });
          else nextMiddleware.set(source, definition);
          continue;
        }
        try {
          const item = compile(entry);
          if (entry.exportName !== undefined) this.exportNames.set(item, entry.exportName);
          compiled.push(item);
        } catch (error) {
          problems.push({ source, message: (error as Error).message });
        }
      }
      next.set(source, compiled);
    }
    problems.push(...this.middlewareClashes(nextMiddleware));
    const owners = new Map([...this.owners].filter(([, owner]) => !updates.has(owner)));
    for (const [source, compiled] of next) {
      for (const item of compiled) {
        for (const { key, label } of identities(item)) {
          const owner = owners.get(key);
          if (owner !== undefined) {
            const where =
              owner === source ? `twice in ${source}` : `in both ${owner} and ${source}`;
            problems.push({ source, message: `${label} is defined ${where}; rename one of them` });
          } else {
            owners.set(key, source);
          }
        }
      }
    }
    if (problems.length > 0) throw new RegistryError(problems);

    const before = new Map([...updates.keys()].map((s) => [s, this.bySource.get(s) ?? []]));
    for (const [source] of updates) {
      const compiled = next.get(source);
      if (compiled && compiled.length > 0) this.bySource.set(source, compiled);
      else this.bySource.delete(source);
      const middleware = nextMiddleware.get(source);
      if (middleware) this.middlewareBySource.set(source, middleware);
      else this.middlewareBySource.delete(source);
    }
    this.owners.clear();
    for (const [key, owner] of owners) this.owners.set(key, owner);
    this.rebuildIndexes();

    // A definition's scopes decide who sees it: a change of them alone (its own, or a
    // folder's `_middleware`) changes a list as some callers see it.
    const scoped = (compiled: Compiled, descriptor: object) => [
      descriptor,
      this.servedMap.get(compiled)?.scopes ?? [],
    ];
    const signatures = this.signatures;
    this.signatures = listSignatures(
      this.sortedTools.map((tool) => scoped(tool, this.toolDescriptor(tool))),
      this.sortedPrompts.map((prompt) => scoped(prompt, prompt.descriptor)),
      [...this.sortedResources, ...this.templateList].map((resource) =>
        scoped(resource, resource.descriptor),
      ),
    );
    const [was, is] = [[...before.values()], [...next.values()]];
    const templates = updatedTemplates(was, is);
    const change: RegistryChange = {
      tools: signatures.tools !== this.signatures.tools,
      prompts: signatures.prompts !== this.signatures.prompts,
      resources: signatures.resources !== this.signatures.resources,
      updatedUris: updatedUris(was, is),
      ...(templates.length > 0 && { updatedTemplates: templates }),
    };
    if (
      change.tools ||
      change.prompts ||
      change.resources ||
      change.updatedUris.length > 0 ||
      templates.length > 0
    ) {
      for (const listener of this.listeners) listener(change);
    }
    return change;
  }

  private rebuildIndexes(): void {
    const all = [...this.bySource.values()].flat();
    this.sortedTools = all.filter((c): c is CompiledTool => c.kind === "tool").sort(byName);
    this.sortedPrompts = all.filter((c): c is CompiledPrompt => c.kind === "prompt").sort(byName);
    const resources = all.filter((c): c is CompiledResource => c.kind === "resource").sort(byName);
    this.sortedResources = resources.filter((r) => r.uri !== undefined);
    this.templateList = resources.filter((r) => r.template !== undefined);
    this.matchOrder = [...this.templateList].sort((a, b) => literalLength(b) - literalLength(a));
    this.toolMap = new Map(this.sortedTools.map((t) => [t.name, t]));
    this.promptMap = new Map(this.sortedPrompts.map((p) => [p.name, p]));
    this.resourceMap = new Map(this.sortedResources.map((r) => [r.uri as string, r]));
    this.sortedViews = viewsAmong(this.sortedResources);
    this.linkedTools = linkViews(this.sortedTools, this.sortedViews);
    this.servedMap = servedDefinitions(
      this.bySource,
      this.middlewareBySource,
      this.serverMiddleware,
    );
    this.tracedMap = undefined;
    this.scopeSummary = undefined;
  }

  /**
   * The OAuth scopes in use: `declared`, every scope any definition needs
   * (what the protected-resource metadata lists); `shared`, those every
   * definition needs (the server's middleware and the root `_middleware`'s),
   * what a client is told to ask for first.
   */
  scopes(): { readonly declared: readonly string[]; readonly shared: readonly string[] } {
    if (this.scopeSummary === undefined) {
      const root = [...this.middlewareBySource].find(([source]) => folderOfSource(source) === "");
      this.scopeSummary = {
        declared: scopeUnion([...this.servedMap.values()].map((served) => served.scopes)),
        shared: scopeUnion([...this.serverMiddleware, root?.[1]].map((m) => m?.scopes)),
      };
    }
    return this.scopeSummary;
  }

  /** Two middleware for one folder (`_middleware.ts` and `_middleware.js`): the second is refused. */
  private middlewareClashes(
    updated: ReadonlyMap<string, MiddlewareDefinition | undefined>,
  ): { source: string; message: string }[] {
    const byFolder = new Map<string, string>();
    for (const source of this.middlewareBySource.keys()) {
      if (!updated.has(source)) byFolder.set(folderOfSource(source), source);
    }
    const problems: { source: string; message: string }[] = [];
    for (const [source, middleware] of updated) {
      if (!middleware) continue;
      const folder = folderOfSource(source);
      const other = byFolder.get(folder);
      if (other === undefined) byFolder.set(folder, source);
      else {
        problems.push({
          source,
          message: `is a second middleware for ${folder === "" ? "the server directory" : `folder ${folder}`} (${other} is the first); keep one`,
        });
      }
    }
    return problems;
  }

  /**
   * The server's own middleware (the config's `middleware`, createServer's),
   * run around every folder's, first to last.
   */
  useMiddleware(middleware: readonly MiddlewareDefinition[]): void {
    for (const definition of middleware) {
      const problem = isMiddlewareDefinition(definition)
        ? middlewareProblem(definition)
        : "is not a middleware: create it with defineMiddleware";
      if (problem !== undefined) throw new TypeError(`middleware: ${problem}`);
    }
    this.serverMiddleware = [...middleware];
    this.rebuildIndexes();
  }

  /** How a definition is served: its middleware chain and its time limit. */
  served(compiled: Compiled): Served {
    const served = handlerChannel?.hasSubscribers ? this.traced() : this.servedMap;
    return served.get(compiled) ?? UNWRAPPED;
  }

  /** Served while something subscribes to `mcp-dir:handler`: each middleware and handler run published. */
  private traced(): Map<Compiled, Served> {
    this.tracedMap ??= servedDefinitions(
      this.bySource,
      this.middlewareBySource,
      this.serverMiddleware,
      tracedChain,
    );
    return this.tracedMap;
  }

  tool(name: string): CompiledTool | undefined {
    return this.toolMap.get(name);
  }

  prompt(name: string): CompiledPrompt | undefined {
    return this.promptMap.get(name);
  }

  /**
   * A fixed resource by URI, else the template that matches it with the most
   * literal text (`docs://readme/{section}` before `docs://{+path}`), the
   * first by name among those with as much.
   */
  resource(
    uri: string,
  ): { resource: CompiledResource; params: Record<string, string> } | undefined {
    const fixed = this.resourceMap.get(uri);
    if (fixed) return { resource: fixed, params: {} };
    for (const resource of this.matchOrder) {
      const params = resource.template?.match(uri);
      if (params) return { resource, params };
    }
    return undefined;
  }

  /** The resource at exactly this fixed URI (no template's instances). */
  fixedResource(uri: string): CompiledResource | undefined {
    return this.resourceMap.get(uri);
  }

  templateByUri(uriTemplate: string): CompiledResource | undefined {
    return this.templateList.find((t) => t.template?.template === uriTemplate);
  }

  get tools(): readonly CompiledTool[] {
    return this.sortedTools;
  }

  get prompts(): readonly CompiledPrompt[] {
    return this.sortedPrompts;
  }

  get resources(): readonly CompiledResource[] {
    return this.sortedResources;
  }

  get templates(): readonly CompiledResource[] {
    return this.templateList;
  }

  /** The resources that are views (MCP Apps, at `ui://` URIs), among `resources`. */
  get views(): readonly CompiledResource[] {
    return this.sortedViews;
  }

  /**
   * A tool as clients that show views see it: with `_meta.ui.resourceUri`
   * naming the view of its name when it names none itself.
   */
  toolDescriptor(tool: CompiledTool): Tool {
    return this.linkedTools.get(tool) ?? tool.descriptor;
  }

  /** The tools whose view is `uri` (named in their `_meta.ui`, or by convention), by name. */
  toolsShownBy(uri: string): CompiledTool[] {
    return this.sortedTools.filter(
      (tool) => toolUi(this.toolDescriptor(tool)._meta)?.resourceUri === uri,
    );
  }

  /** The module export `compiled` came from; undefined for Markdown, static files and views. */
  exportOf(compiled: Compiled): string | undefined {
    return this.exportNames.get(compiled);
  }

  /** Every source that gives the registry anything: definitions, or a folder's middleware. */
  sources(): string[] {
    return [...new Set([...this.bySource.keys(), ...this.middlewareBySource.keys()])];
  }

  /**
   * Every definition with the source it came from: sources in sorted order (not the
   * order they were loaded in), each source's definitions in the order it gave them.
   */
  entries(): { source: string; compiled: Compiled }[] {
    const sources = [...this.bySource].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return sources.flatMap(([source, list]) => list.map((compiled) => ({ source, compiled })));
  }
}
