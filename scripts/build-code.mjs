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
 */
import { build } from "esbuild";

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
  // The loader on its own, for the tests that drive it in a process of their own.
  "loader/index",
  "loader/import-error",
  "loader/speculative-transforms",
];

await build({
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
  logLevel: "warning",
});
