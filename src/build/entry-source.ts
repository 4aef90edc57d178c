import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { BuildTarget } from "../bundle/runtime.js";
import { isCodeFile, isViewFile } from "../loader/folders.js";
import type { DirectoryLoad } from "../loader/load-directory.js";
import { loadView } from "../loader/views/load-view.js";
import type { CompiledView } from "../loader/views/view-definition.js";

export type { BuildTarget } from "../bundle/runtime.js";

const quote = (value: unknown) => JSON.stringify(value);

/**
 * The module esbuild bundles: every definition file of the directory imported
 * statically, Markdown prompts, static resources and built views embedded, and the server
 * made from them at start-up. `dist` is this package's own built code (the
 * runtime), so the bundle needs nothing of mcp-dir at run time. It exports
 * `createServer` and `fetch`, and `default` (what Workers and `deno serve`
 * take; not for Bun, which would serve it unasked). A Worker gets no more;
 * the other targets also run when started as a program (stdio, or HTTP with
 * --http). Each reads its settings from its runtime's environment.
 */
export async function entrySource(
  load: DirectoryLoad,
  dist: string,
  target: BuildTarget,
): Promise<string> {
  const imports: string[] = [];
  const files: string[] = [];
  /** Whether a Markdown prompt is embedded: its front matter is YAML the bundle reads. */
  let markdownPrompts = false;
  for (const file of load.sources.keys()) {
    if (isViewFile(file)) {
      files.push(`{ file: ${quote(file)}, view: ${quote(await builtView(load.dir, file))} }`);
    } else if (isCodeFile(file)) {
      const name = `m${imports.length}`;
      imports.push(`import * as ${name} from ${quote(join(load.dir, file))};`);
      files.push(`{ file: ${quote(file)}, module: ${name} }`);
    } else {
      const bytes = await readFile(join(load.dir, file));
      const prompt = file.startsWith("prompts/");
      markdownPrompts ||= prompt;
      files.push(
        prompt
          ? `{ file: ${quote(file)}, text: ${quote(bytes.toString("utf8"))} }`
          : `{ file: ${quote(file)}, base64: ${quote(bytes.toString("base64"))} }`,
      );
    }
  }
  // Middleware in the config are functions: the bundle imports the config file for them.
  const { file: configFile, middleware, ...config } = load.config;
  const configImport =
    middleware !== undefined && configFile !== undefined && isCodeFile(configFile)
      ? `import configModule from ${quote(join(load.dir, configFile))};`
      : undefined;
  const runtime = (path: string) => quote(join(dist, path));
  const lines = [
    ...(markdownPrompts ? [`import ${runtime("bundle/yaml-provider.js")};`] : []),
    `import { createBundledServer } from ${runtime("bundle/runtime.js")};`,
    `import { bundleExports } from ${runtime("bundle/exports.js")};`,
    ...imports,
    ...(configImport ? [configImport] : []),
    `const bundle = {`,
    configImport
      ? `  config: { ...${quote(config)}, middleware: configModule.middleware },`
      : `  config: ${quote(config)},`,
    `  folders: ${quote(load.folders)},`,
    `  files: [\n    ${files.join(",\n    ")}\n  ],`,
    `};`,
    // Made on first use: Workers forbid what a server does when made (a random key) at load.
    `export const createServer = () => createBundledServer(bundle);`,
    `const exported = bundleExports(bundle, ${quote(target)});`,
    `export const fetch = exported.fetch;`,
    // Bun serves a main module's default { fetch } on port 3000 by itself: not wanted.
    ...(target === "bun" ? [] : [`export default exported.default;`]),
  ];
  if (target !== "cloudflare") {
    lines.unshift(`import { isEntry, runBundled } from ${runtime("bundle/main.js")};`);
    // Deno and Bun know their main module; Node before 24 does not. `deno serve` runs the
    // module as the main one too, and listens before the next task: then no program.
    lines.push(
      `if (import.meta.main ?? isEntry(import.meta.url)) {`,
      `  setTimeout(() => exported.servedAsModule() || runBundled(bundle, process.argv.slice(2)));`,
      `}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A view as `serve` builds it, to embed: the build checked the directory, so it builds. */
async function builtView(dir: string, file: string): Promise<CompiledView> {
  const { view, problems } = await loadView(dir, file);
  if (view === undefined) throw new Error(`${file}: ${problems.join("; ")}`);
  return view;
}
