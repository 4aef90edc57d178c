/**
 * The compiler options of a new project's tsconfig.json, and what
 * `mcp-dir check --typecheck` uses for a directory without one. They follow
 * how the loader (tsx) reads author files: strict; ES modules whatever the
 * package's "type"; imports resolved as a bundler would, so "./helper",
 * "./helper.js" and "./helper.ts" all work; packages (mcp-dir, zod, @types/node)
 * from the project's node_modules.
 */
export const TYPESCRIPT_DEFAULTS = {
  target: "ES2022",
  lib: ["ES2023"],
  module: "ESNext",
  moduleResolution: "Bundler",
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
} as const;
