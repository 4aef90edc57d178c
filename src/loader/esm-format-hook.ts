import { register } from "node:module";

/** The query parameter that marks a file URL to be loaded as an ES module. */
const MARK = "mcp-dir-esm";

/**
 * A module loader hook, run in Node's hooks thread below tsx's (which
 * tsImport registers afresh for each import): a marked file is an ES module
 * whatever its package.json says. tsx compiles what is said to be
 * "module-typescript" (Node's own name for it) as TypeScript. A data: URL, so
 * that there is no file to find, built or not.
 */
const HOOK = `export async function load(url, context, nextLoad) {
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
  if (!registered) {
    register(`data:text/javascript,${encodeURIComponent(HOOK)}`);
    registered = true;
  }
  const marked = new URL(fileUrl);
  marked.searchParams.set(MARK, "");
  return marked.href;
}
