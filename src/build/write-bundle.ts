import { realpathSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Message, type Plugin } from "esbuild";
import { shownPath } from "../bundle/shown-path.js";
import { isInsideDir } from "../loader/inside-dir.js";
import type { LoadedServer } from "../loader/load-server.js";
import type { LoadProblem } from "../loader/problems.js";
import { configuredRedisUrl } from "../loader/server-options.js";
import { commonJsGlobalsPlugin } from "./commonjs-globals.js";
import { embeddedVariables, embeddedVariableWarning } from "./embedded-environment.js";
import { type BuildTarget, entrySource } from "./entry-source.js";
import { BUNDLE_FILE, clearOutFolder, MANIFEST_FILE, WRANGLER_FILE } from "./out-folder.js";

/** This package's built code: `dist/` (this file is dist/build/write-bundle.js). */
const DIST = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The runtime's yaml (front matter) as its browser build: the same code as an
 * ES module. The build for Node reads LOG_TOKENS and LOG_STREAM at every
 * parse, which Deno allows only when asked (`--allow-env=` the bundle's own
 * variables then stopped at its first Markdown prompt). Workers take this
 * build already; an author's own `import "yaml"` is left to esbuild.
 */
const RUNTIME_YAML: Plugin = {
  name: "mcp-dir-runtime-yaml",
  setup(build) {
    const browser = join(
      dirname(createRequire(import.meta.url).resolve("yaml/package.json")),
      "browser",
      "index.js",
    );
    build.onResolve({ filter: /^yaml$/ }, ({ importer }) =>
      isInsideDir(DIST, importer) ? { path: browser } : undefined,
    );
  },
};

/** A date the Workers runtime installed from the npm registry supports. */
const COMPATIBILITY_DATE = "2026-04-01";

export interface BuiltBundle {
  readonly files: string[];
  /** Where the server's files use what the bundle lacks: "file:line:column: what to do". */
  readonly warnings: string[];
}

/** Why esbuild could not bundle what `check` loaded: nothing was written. */
export interface FailedBundle {
  readonly problems: LoadProblem[];
}

/** Why a config that names a Redis does not build: a bundle has no Redis client (settings.ts refuses the variable). */
const NO_REDIS =
  "redis names a Redis, but a built bundle does not connect to Redis: its replicas would share no tasks, resource updates or 2025 streams. Remove the URL from the config to build, and give mcp-dir serve the Redis in MCP_DIR_REDIS_URL instead";

/** A file esbuild names (relative to the working directory), as the loader names it: from the server directory. */
function serverFile(dir: string, file: string): string {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const from = relative(real(dir), real(resolve(file)));
  return from.startsWith("..") ? file : from.split(sep).join("/");
}

/**
 * One esbuild error, said as a load problem: what the loader cannot see
 * because it runs only when a handler does (an import() of a file or
 * package that is missing) fails the build, and the message says what to do.
 */
function bundleProblem(dir: string, error: Message): LoadProblem {
  const { location } = error;
  // Without a place, the error is the bundle's own.
  const file = location === null ? BUNDLE_FILE : serverFile(dir, location.file);
  const where = location === null ? "" : ` (${location.line}:${location.column + 1})`;
  const missing = /^Could not resolve "([^"]+)"$/.exec(error.text)?.[1];
  let message = error.text;
  if (missing !== undefined && /^\.{0,2}\//.test(missing)) {
    message = `Cannot find module '${missing}' imported from ${file}, which the bundle must hold: create it, or correct the path`;
  } else if (missing !== undefined) {
    message = `Cannot find package '${missing}' imported from ${file}, which the bundle must hold even if only a handler imports it; install it in the server directory (npm install)`;
  }
  return { file, message: `${message}${where}` };
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
): Promise<BuiltBundle | FailedBundle> {
  const { load, server } = loaded;
  const worker = target === "cloudflare";
  const { file: configFile, ...config } = load.config;
  if (configuredRedisUrl(load.config) !== undefined) {
    return { problems: [{ file: configFile ?? "mcp-dir.config", message: NO_REDIS }] };
  }
  const warnings = embeddedVariables(config).map((found) =>
    embeddedVariableWarning(configFile ?? "the config", found),
  );
  // Written only once it is built: a failure leaves the out folder as it was.
  const bundled = await build({
    stdin: {
      contents: await entrySource(load, DIST, target),
      resolveDir: load.dir,
      sourcefile: "mcp-dir-build-entry.mjs",
      loader: "js",
    },
    bundle: true,
    write: false,
    format: "esm",
    target: "es2022",
    outfile: join(out, BUNDLE_FILE),
    // Author files import "mcp-dir": the same copy as the runtime, bundled once,
    // and only its authoring API (no loader, no Node transports).
    alias: { "mcp-dir": join(DIST, "authoring.js") },
    logLevel: "silent",
    legalComments: "none",
    plugins: [RUNTIME_YAML, commonJsGlobalsPlugin(load.dir, target, warnings)],
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
  }).catch((error: { errors?: Message[] }) => {
    if (!Array.isArray(error.errors) || error.errors.length === 0) throw error;
    return { problems: error.errors.map((message) => bundleProblem(load.dir, message)) };
  });
  if ("problems" in bundled) return bundled;
  await clearOutFolder(out);
  for (const file of bundled.outputFiles) await writeFile(file.path, file.contents);
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
