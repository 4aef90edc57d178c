import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { LoadedServer } from "../loader/load-server.js";
import { commonJsGlobalsPlugin } from "./commonjs-globals.js";
import { type BuildTarget, entrySource } from "./entry-source.js";
import {
  BUNDLE_FILE,
  clearOutFolder,
  MANIFEST_FILE,
  shownPath,
  WRANGLER_FILE,
} from "./out-folder.js";

/** This package's built code: `dist/` (this file is dist/build/write-bundle.js). */
const DIST = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A date the Workers runtime installed from the npm registry supports. */
const COMPATIBILITY_DATE = "2026-04-01";

export interface BuiltBundle {
  readonly files: string[];
  /** Where the server's files use what the bundle lacks: "file:line:column: what to do". */
  readonly warnings: string[];
}

/**
 * Writes `out`: the bundle (one ES module, every dependency inside it), its
 * manifest, and for Cloudflare a wrangler.toml; says where the server's files
 * use a CommonJS global the bundle lacks. `out` is one outFolderProblem
 * accepted: an earlier build's files in it are replaced, nothing else is touched.
 */
export async function writeBundle(
  loaded: LoadedServer,
  out: string,
  target: BuildTarget,
): Promise<BuiltBundle> {
  const { load, server } = loaded;
  await clearOutFolder(out);
  const worker = target === "cloudflare";
  const warnings: string[] = [];
  await build({
    stdin: {
      contents: await entrySource(load, DIST, target),
      resolveDir: load.dir,
      sourcefile: "mcp-dir-build-entry.mjs",
      loader: "js",
    },
    bundle: true,
    format: "esm",
    target: "es2022",
    outfile: join(out, BUNDLE_FILE),
    // Author files import "mcp-dir": the same copy as the runtime, bundled once,
    // and only its authoring API (no loader, no Node transports).
    alias: { "mcp-dir": join(DIST, "authoring.js") },
    logLevel: "silent",
    legalComments: "none",
    plugins: [commonJsGlobalsPlugin(load.dir, target, warnings)],
    ...(worker
      ? {
          platform: "neutral",
          mainFields: ["module", "main"],
          conditions: ["workerd", "worker", "import"],
          external: ["node:*"],
        }
      : {
          platform: "node",
          // CommonJS dependencies may require Node's modules from inside an ES module.
          banner: {
            js: 'import { createRequire as __mcpDirCreateRequire } from "node:module"; const require = __mcpDirCreateRequire(import.meta.url);',
          },
        }),
  });
  const { registry } = server;
  const manifest = {
    name: load.config.name,
    version: load.config.version,
    target,
    main: BUNDLE_FILE,
    tools: registry.tools.map((tool) => tool.name),
    prompts: registry.prompts.map((prompt) => prompt.name),
    resources: registry.resources.map((resource) => resource.uri),
    resourceTemplates: registry.templates.map((template) => template.template?.template),
    files: [...load.sources.keys()],
  };
  const files = [BUNDLE_FILE, MANIFEST_FILE];
  await writeFile(join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  if (worker) {
    await writeFile(join(out, WRANGLER_FILE), wranglerToml(load.config.name));
    files.push(WRANGLER_FILE);
  }
  return { files: files.map((file) => shownPath(join(out, file))), warnings };
}

function wranglerToml(name: string): string {
  const workerName =
    name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "mcp-server";
  return `# Deploy with: npx wrangler deploy (from this folder)
# The Worker serves nothing until it has a token: npx wrangler secret put MCP_DIR_AUTH_TOKEN
# (and npx wrangler secret put MCP_DIR_STATE_KEY, so every isolate signs requestState alike).
name = "${workerName}"
main = "${BUNDLE_FILE}"
compatibility_date = "${COMPATIBILITY_DATE}"
compatibility_flags = ["nodejs_compat"]

# A server meant to be open to anyone, with no token:
# [vars]
# MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE = "1"
`;
}
