import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { bundleView } from "./bundle-view.js";
import type { ViewCache } from "./view-cache.js";
import type { CompiledView } from "./view-definition.js";
import { viewDocument } from "./view-document.js";
import { viewFrontMatter } from "./view-front-matter.js";
import { viewTitle } from "./view-naming.js";
import { viewSettings } from "./view-settings.js";

/** A view file made into its page, or what stops it. */
export interface ViewLoad {
  readonly view: CompiledView | undefined;
  /** The files it was made from (absolute): itself, and what a script view imports. */
  readonly inputs: readonly string[];
  readonly problems: string[];
  readonly warnings: string[];
}

/**
 * Makes a view file of views/ into one HTML document: an HTML view as it is
 * written (less its front matter), a script view (`.ts`, `.tsx`, `.js`, ...)
 * bundled with esbuild, CSS and assets inline, or taken from `cache` (by
 * default the user's, defaultViewCache) while what it was built from is
 * unchanged.
 */
export async function loadView(root: string, file: string, cache?: ViewCache): Promise<ViewLoad> {
  const path = resolve(root, file);
  const failed = (problems: string[], inputs: readonly string[] = [path]): ViewLoad => ({
    view: undefined,
    inputs,
    problems,
    warnings: [],
  });
  let source: string;
  try {
    source = await readFile(path, "utf8");
  } catch (error) {
    return failed([`cannot be read: ${(error as Error).message}`]);
  }
  const isHtml = file.endsWith(".html");
  const frontMatter = viewFrontMatter(source, isHtml);
  if (!frontMatter.ok) return failed([frontMatter.message]);
  const read = viewSettings(frontMatter.data);
  if (!read.ok) return failed(read.problems);
  const { settings, warnings } = read;
  let html = frontMatter.body;
  let inputs: readonly string[] = [path];
  if (!isHtml) {
    const bundle = await bundleView(root, file, cache);
    if (!bundle.ok) return failed([bundle.message]);
    html = viewDocument(settings.title ?? viewTitle(file), bundle.script, bundle.styles);
    inputs = bundle.inputs;
  }
  return { view: { ...settings, html }, inputs, problems: [], warnings };
}
