import { join, relative, resolve, sep } from "node:path";
import type { BuildFailure, BuildOptions, BuildResult, Message } from "esbuild";
import { defaultViewCache, type ViewBuild, type ViewCache } from "./view-cache.js";

export type ViewBundle =
  | { ok: true; script: string; styles: string; inputs: string[] }
  | { ok: false; message: string };

/** Files a view imports that cannot be code: inlined into the page as data: URLs. */
const ASSETS = [".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".ico"]
  .concat([".woff", ".woff2", ".ttf", ".otf", ".mp3", ".wav", ".mp4", ".webm"])
  .map((extension) => [extension, "dataurl"] as const);

/**
 * Bundles a script view (`file`, relative to the server directory `root`)
 * for the browser with esbuild: its imports (packages included), its CSS
 * (one style sheet) and its assets (data: URLs), nothing left to fetch.
 * JSX follows the directory's tsconfig.json, as esbuild reads it. `inputs`
 * are the files of the directory it was made from (absolute), to build it
 * again when one changes. A build is taken from `cache` while nothing it
 * was made from changed.
 */
export async function bundleView(
  root: string,
  file: string,
  cache: ViewCache | undefined = defaultViewCache(),
): Promise<ViewBundle> {
  const options = buildOptions(root, file);
  const built = cache
    ? await cache.build(options, () => build(root, file, options))
    : await build(root, file, options);
  if (!built.ok) return built;
  const inputs = built.files.filter(
    (input) => !relative(root, input).split(sep).includes("node_modules"),
  );
  return { ok: true, script: built.script, styles: built.styles, inputs };
}

function buildOptions(root: string, file: string) {
  return {
    entryPoints: [resolve(root, file)],
    absWorkingDir: root,
    // Nothing is written there: the outputs stay in memory.
    outdir: join(root, ".mcp-dir-view"),
    entryNames: "view",
    write: false,
    metafile: true,
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    charset: "utf8",
    loader: Object.fromEntries(ASSETS),
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  } satisfies BuildOptions;
}

async function build(
  root: string,
  file: string,
  options: ReturnType<typeof buildOptions>,
): Promise<ViewBuild | Extract<ViewBundle, { ok: false }>> {
  let result: BuildResult<typeof options>;
  try {
    // esbuild loads with the first script view built, not with every server.
    const { build } = await import("esbuild");
    result = await build(options);
  } catch (error) {
    const { errors } = error as Partial<BuildFailure>;
    if (!Array.isArray(errors) || errors.length === 0) throw error;
    return { ok: false, message: `cannot be built: ${describe(errors, file)}` };
  }
  const output = (extension: string) =>
    result.outputFiles.find((out) => out.path === join(options.outdir, `view${extension}`))?.text ??
    "";
  // Every file it read, the packages' too: the cache checks them all.
  const files = Object.keys(result.metafile.inputs)
    .filter((input) => !/^[a-z-]+:|^</.test(input))
    .map((input) => resolve(root, input));
  return { ok: true, script: output(".js"), styles: output(".css"), files };
}

/** esbuild's errors for the view's author: each with its place (line:col, and the file when another). */
function describe(errors: readonly Message[], file: string): string {
  return errors
    .map(({ text, location }) => {
      const missing = /^Could not resolve "([^".][^"]*)"/.test(text);
      const said = missing ? `${text}; install it in the server directory (npm install)` : text;
      if (!location) return said;
      const position = `${location.line}:${location.column + 1}`;
      return `${said} (${location.file === file ? position : `${location.file}:${position}`})`;
    })
    .join("; ");
}
