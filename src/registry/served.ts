import type { DefinitionInfo, Middleware, MiddlewareDefinition } from "../define/middleware.js";
import { type Chain, composeChain } from "./chain.js";
import type { Compiled } from "./definition.js";

/** One middleware around a definition, and where it comes from: "(server)", or its `_middleware` file. */
export interface Layer {
  readonly run: Middleware;
  readonly source: string;
}

/** How a definition's layers, outermost first, become what runs it; undefined: its handler, directly. */
export type Compose = (layers: readonly Layer[], info: DefinitionInfo) => Chain | undefined;

/** The chain as it runs while nothing traces it: none at all when no middleware runs. */
export const plainChain: Compose = (layers, info) => {
  if (layers.length === 0) return undefined;
  return composeChain(
    layers.map(({ run }) => run),
    info,
  );
};

/** How one definition is served, beyond itself: composed when the registry changes. */
export interface Served {
  /** What wraps it, outermost first: "(server)" for the server's own, else the `_middleware` file. */
  readonly middleware: readonly string[];
  /** Its middleware composed; undefined when none runs (the handler is called directly). */
  readonly chain: Chain | undefined;
  /** The time limit the nearest folder that sets one gives it, and that folder's file. */
  readonly timeout: { readonly ms: number; readonly source: string } | undefined;
  /** The OAuth scopes a caller needs: its own, its folders', the server's; sorted, once each. */
  readonly scopes: readonly string[];
}

/** How a definition nothing wraps is served. */
export const UNWRAPPED: Served = {
  middleware: [],
  chain: undefined,
  timeout: undefined,
  scopes: [],
};

/** The scopes of several lists, once each, sorted. */
export function scopeUnion(lists: readonly (readonly string[] | undefined)[]): readonly string[] {
  const all = new Set<string>();
  for (const list of lists) for (const scope of list ?? []) all.add(scope);
  return [...all].sort();
}

/** What the server's own middleware are called where a definition's wrappers are listed. */
export const SERVER_MIDDLEWARE = "(server)";

/** "tools/admin/_middleware.ts" → "tools/admin"; a source at the root (or made in code) → "". */
export function folderOfSource(source: string): string {
  const slash = source.lastIndexOf("/");
  return slash === -1 ? "" : source.slice(0, slash);
}

/** "tools/admin" → ["", "tools", "tools/admin"]: the folders whose middleware wrap it, root first. */
function foldersAbove(folder: string): string[] {
  const folders = [""];
  const parts = folder === "" ? [] : folder.split("/");
  for (let i = 1; i <= parts.length; i++) folders.push(parts.slice(0, i).join("/"));
  return folders;
}

function infoOf(compiled: Compiled, source: string): DefinitionInfo {
  // Sources made in code ("<code>") are no file.
  const file = source.startsWith("<") ? undefined : source;
  const { kind, name } = compiled;
  const title = compiled.definition.title;
  const base = { kind, name, file, ...(title !== undefined && { title }) };
  if (compiled.kind === "tool") {
    const { annotations } = compiled.definition;
    return annotations ? { ...base, annotations } : base;
  }
  if (compiled.kind === "resource") {
    return { ...base, uri: compiled.uri ?? compiled.template?.template ?? "" };
  }
  return base;
}

/**
 * Every definition's middleware, composed by `compose`: the server's own
 * first, then the `_middleware` of each folder from the root down to the
 * definition's own.
 */
export function servedDefinitions(
  bySource: ReadonlyMap<string, readonly Compiled[]>,
  middlewareBySource: ReadonlyMap<string, MiddlewareDefinition>,
  serverMiddleware: readonly MiddlewareDefinition[],
  compose: Compose = plainChain,
): Map<Compiled, Served> {
  const byFolder = new Map<string, { source: string; definition: MiddlewareDefinition }>();
  for (const [source, definition] of middlewareBySource) {
    byFolder.set(folderOfSource(source), { source, definition });
  }
  const served = new Map<Compiled, Served>();
  for (const [source, compiledList] of bySource) {
    const wrappers: string[] = serverMiddleware.map(() => SERVER_MIDDLEWARE);
    const shared = serverMiddleware.map((definition) => definition.scopes);
    const layers: Layer[] = [];
    for (const { run } of serverMiddleware) {
      if (run) layers.push({ run, source: SERVER_MIDDLEWARE });
    }
    let timeout: Served["timeout"];
    for (const { timeoutMs } of serverMiddleware) {
      if (timeoutMs !== undefined) timeout = { ms: timeoutMs, source: SERVER_MIDDLEWARE };
    }
    for (const folder of foldersAbove(folderOfSource(source))) {
      const found = byFolder.get(folder);
      if (!found) continue;
      wrappers.push(found.source);
      const { run } = found.definition;
      if (run) layers.push({ run, source: found.source });
      const { timeoutMs } = found.definition;
      if (timeoutMs !== undefined) timeout = { ms: timeoutMs, source: found.source };
      shared.push(found.definition.scopes);
    }
    for (const compiled of compiledList) {
      const chain = compose(layers, infoOf(compiled, source));
      const scopes = scopeUnion([...shared, compiled.definition.scopes]);
      served.set(compiled, { middleware: wrappers, chain, timeout, scopes });
    }
  }
  return served;
}
