/**
 * Builds the package's code into dist/: esbuild bundles src/ from the entry
 * points below, splitting what they share into dist/chunks/, with every
 * package left to be imported at run time. A process then loads a few dozen
 * files where it loaded some three hundred (each costs Node a resolution, a
 * read and a compile: measured, a quarter of a `serve`'s start-up). tsc writes
 * only the declarations, beside them. Run by `npm run build`.
 *
 * Every file a chunk holds is named in it (`// src/...`), in the order it
 * runs: test/cli/light-start.test.ts reads those names to tell what a command
 * loaded.
 *
 * The CommonJS packages of many small files that mcp-dir loads itself (not
 * those an author's code shares, such as zod) are each bundled into one file,
 * dist/vendor/<name>.cjs: src/vendor/<name>.cjs requires the package, and the
 * code imports that file by a path that holds from src/<folder>/ and from
 * dist/chunks/ alike. Measured: fast-glob 21 -> 8 ms of CPU, yaml 34 -> 10 ms.
 */
import { readdirSync } from "node:fs";
import { dirname, relative } from "node:path";
import { build } from "esbuild";
import { vendoredFiles } from "./vendored-files.mjs";

/** The packages of src/vendor/: one <name>.cjs each. */
const VENDORED = readdirSync("src/vendor")
  .filter((file) => file.endsWith(".cjs"))
  .map((file) => file.slice(0, -".cjs".length));

await build({
  entryPoints: VENDORED.map((name) => ({ in: `src/vendor/${name}.cjs`, out: `vendor/${name}` })),
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});

const ENTRIES = [
  // What package.json names: the API, mcp-dir/testing, mcp-dir/otel and the binary.
  "index",
  "testing/index",
  "otel/index",
  "cli/main",
  // What `mcp-dir build` bundles into a user's server (src/build/entry-source.ts).
  "authoring",
  "bundle/runtime",
  "bundle/exports",
  "bundle/main",
  "bundle/yaml-provider",
  // The loader on its own, for the tests that drive it in a process of their own.
  "loader/index",
  "loader/import-error",
  "loader/speculative-transforms",
];

const { metafile } = await build({
  entryPoints: ENTRIES.map((entry) => ({ in: `src/${entry}.ts`, out: entry })),
  outdir: "dist",
  // dist/chunks/ is as deep as dist/cli/: paths made from import.meta.url hold in both.
  chunkNames: "chunks/[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  plugins: [vendoredFiles],
  metafile: true,
  logLevel: "warning",
});

// The path to dist/vendor/ holds only in a file two folders deep, as dist/chunks/ is.
for (const [output, { imports }] of Object.entries(metafile.outputs)) {
  for (const { path } of imports) {
    if (!path.includes("/vendor/")) continue;
    const folder = relative("dist", dirname(output));
    if (folder === "" || folder.includes("/"))
      throw new Error(`${output} imports ${path}, which holds only in dist/<folder>/`);
  }
}
