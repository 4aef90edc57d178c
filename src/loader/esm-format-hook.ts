import { register } from "node:module";

/** The query parameter that marks a file URL to be loaded as an ES module. */
const MARK = "mcp-dir-esm";

/** tsx's query parameter naming the namespace of a module. */
const NAMESPACE = "tsx-namespace";
/** The namespace packages get when imported from any tsx namespace. */
const PACKAGES = "mcp-dir-packages";

/**
 * Module loader hooks, run in Node's hooks thread below tsx's (which
 * tsImport registers afresh for each import). A data: URL, so that there is
 * no file to find, built or not.
 *
 * load: a marked file is an ES module whatever its package.json says. tsx
 * compiles what is said to be "module-typescript" (Node's own name for it) as
 * TypeScript.
 *
 * resolve: tsx gives every module a namespace imports its own copy of, and a
 * file with top-level await is imported in a namespace of its own, so that a
 * save loads it afresh. Packages need no fresh copy, yet each namespace made
 * one of every package it imported (zod and mcp-dir: most of a second each).
 * A package imported from a namespace (a bare specifier), and what a package
 * imports, is put in one namespace of their own, which tsx leaves as it is:
 * one copy for every import, the directory's files still new in each.
 */
const HOOK = `const NAMESPACE = ${JSON.stringify(NAMESPACE)};
const PACKAGES = ${JSON.stringify(PACKAGES)};
const isBare = (specifier) => !(specifier.startsWith(".") || specifier.startsWith("/") || /^[a-z][a-z0-9+.-]*:/i.test(specifier));
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const parent = context.parentURL ? new URL(context.parentURL) : undefined;
  const from = parent?.searchParams.get(NAMESPACE);
  if (!from || !resolved.url.startsWith("file:")) return resolved;
  if (from !== PACKAGES && !isBare(specifier)) return resolved;
  const url = new URL(resolved.url);
  if (url.searchParams.has(NAMESPACE)) return resolved;
  url.searchParams.set(NAMESPACE, PACKAGES);
  return { ...resolved, url: url.href };
}
export async function load(url, context, nextLoad) {
  const parsed = new URL(url);
  if (!parsed.searchParams.has(${JSON.stringify(MARK)})) return nextLoad(url, context);
  const loaded = await nextLoad(url, { ...context, format: "module" });
  return /\\.m?ts$/.test(parsed.pathname) ? { ...loaded, format: "module-typescript" } : loaded;
}
`;

let registered = false;

/**
 * `fileUrl` marked to be imported as an ES module, for a file with top-level
 * await outside an ES module package (its `.ts` or `.js` would be CommonJS
 * there, which cannot await). The hook is registered on the first call.
 */
export function asEsModule(fileUrl: string): string {
  registerFormatHook();
  const marked = new URL(fileUrl);
  marked.searchParams.set(MARK, "");
  return marked.href;
}

/**
 * Registers the hook, once. Hooks registered later run first: it must come
 * before any tsx namespace that is to see what it marks.
 */
export function registerFormatHook(): void {
  if (registered) return;
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`);
  registered = true;
}
