import { access, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Middleware, MiddlewareDefinition } from "../define/middleware.js";
import type { LoggingLevel } from "../protocol/types.js";
import type { HttpAuthOptions } from "../settings/auth-options.js";
import { CHECKS, describeProblem } from "./config-checks.js";
import { CONFIG_FILES } from "./config-files.js";
import { describeImportError } from "./import-error.js";
import type { ModuleImporter } from "./importer.js";
import type { LoadProblem, LoadWarning } from "./problems.js";

/** Defaults for `mcp-dir serve --http`; read by the HTTP transport. */
export interface HttpConfig {
  port?: number;
  host?: string;
  path?: string;
  allowedOrigins?: string[];
  allowedHosts?: string[];
  /** OAuth: the authorization server whose access tokens to accept; see the README's Authorization. */
  auth?: HttpAuthOptions;
  /** Further options of the HTTP transport pass through untouched. */
  [option: string]: unknown;
}

/** `mcp-dir.config.ts` (or .mts, .js, .mjs, .json) in the server directory. */
export interface ServerConfig {
  /** Defaults to the directory's package.json name, else the folder's name. */
  name?: string;
  /** Defaults to the directory's package.json version, else "0.0.0". */
  version?: string;
  title?: string;
  description?: string;
  /** Sent to clients at initialize: how to use this server. */
  instructions?: string;
  /** Items per page of every list. Default 100. */
  pageSize?: number;
  /** The log level a session starts with until the client sets one. */
  logLevel?: LoggingLevel;
  /**
   * How long (ms) a 2026-07-28 client may take to answer a handler's
   * questions, and how many rounds of them one request may have (1 or
   * more). The signing key is not configured here: set MCP_DIR_STATE_KEY.
   */
  inputRounds?: { ttlMs?: number; maxRounds?: number };
  /**
   * How long (ms) one run of a tool, prompt or resource handler may take
   * unless its definition sets `timeoutMs`; 0 for no limit. Default 5 minutes.
   */
  callTimeoutMs?: number;
  /** The largest result (bytes of JSON) a request may send; 0 for no limit. Default 16 MiB. */
  maxResultBytes?: number;
  /** Resource URIs one session or listen stream may subscribe to. Default 1000. */
  maxSubscriptions?: number;
  /**
   * What all clients together may make the server keep between requests
   * (sessions, subscriptions, listen streams), in bytes; 0 for no limit.
   * Default: a quarter of the JavaScript heap the process runs with.
   */
  memoryBudgetBytes?: number;
  /**
   * Tool calls run as tasks: how long (ms) each task and its outcome are kept
   * (default 1 hour), how often (ms) clients are asked to poll (default 1
   * second), and how many tasks are kept at once (default 1000).
   */
  tasks?: { ttlMs?: number; pollIntervalMs?: number; maxTasks?: number };
  /**
   * Redis shared by the replicas of this server, for `serve` and `dev`: its
   * URL, or `{ url, prefix, leaseMs }`. MCP_DIR_REDIS_URL, when set, gives
   * the URL instead (the other settings still apply).
   */
  redis?: string | { url?: string; prefix?: string; leaseMs?: number };
  /**
   * Middleware around every tool, prompt and resource, before the server
   * directory's own `_middleware.ts` files.
   */
  middleware?: (Middleware | MiddlewareDefinition)[];
  /**
   * Globs of the files that load, relative to the server directory, each under
   * tools/, prompts/, resources/ or views/. Default: every file of those folders.
   */
  include?: string[];
  /** Globs of files, or folders, that do not load, e.g. ["tools/drafts/**"]. */
  exclude?: string[];
  http?: HttpConfig;
}

export { defineConfig } from "./define-config.js";

export interface ResolvedConfig extends ServerConfig {
  name: string;
  version: string;
  /** The configuration file read, if any. */
  file?: string;
}

export { CONFIG_FILES } from "./config-files.js";

export interface ConfigLoad {
  config: ResolvedConfig;
  problems: LoadProblem[];
  warnings: LoadWarning[];
}

async function packageDefaults(dir: string): Promise<{ name: string; version: string }> {
  try {
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
      name?: unknown;
      version?: unknown;
    };
    return {
      name: typeof pkg.name === "string" && pkg.name !== "" ? pkg.name : basename(dir),
      version: typeof pkg.version === "string" ? pkg.version : "0.0.0",
    };
  } catch {
    return { name: basename(dir), version: "0.0.0" };
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function readConfigValue(
  dir: string,
  file: string,
  importer: ModuleImporter,
): Promise<{ value: unknown } | { problem: string }> {
  const path = join(dir, file);
  if (file.endsWith(".json")) {
    const source = await readFile(path, "utf8");
    try {
      return { value: JSON.parse(source) };
    } catch (error) {
      return { problem: `is not valid JSON: ${describeJsonError(error as Error, source)}` };
    }
  }
  try {
    const namespace = await importer.import(path);
    if (!("default" in namespace)) {
      return {
        problem:
          'exports no default: export the configuration as default, e.g. export default defineConfig({ name: "my-server" })',
      };
    }
    return { value: namespace.default };
  } catch (error) {
    return { problem: await describeImportError(error, dir, file) };
  }
}

/**
 * What is wrong with the default export when it is not the options object
 * itself. A promise or a function is an object too, whose options would all be
 * missed in silence: say what to write instead.
 */
function shapeProblem(value: unknown): string | undefined {
  const example = 'export default defineConfig({ name: "my-server" })';
  if (typeof value === "function") {
    return `exports a function as default; export the options object itself, e.g. ${example}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return 'must export an object, such as { name: "my-server" }';
  }
  if (typeof (value as { then?: unknown }).then === "function") {
    return "exports a promise as default; export the options object itself, with await at the top level for what it needs, e.g. export default defineConfig({ instructions: await loadInstructions() })";
  }
  return undefined;
}

/** Node's JSON messages vary by version; say "(line:col)" the same way everywhere. */
function describeJsonError(error: Error, source: string): string {
  const position = /at position (\d+)/.exec(error.message);
  const message = error.message.replace(/ at position \d+.*$/, "");
  if (!position) return message;
  const before = source.slice(0, Number(position[1])).split("\n");
  return `${message} (${before.length}:${(before[before.length - 1] ?? "").length + 1})`;
}

/** Reads the optional configuration file and fills in the defaults. */
export async function loadConfig(dir: string, importer: ModuleImporter): Promise<ConfigLoad> {
  const defaults = await packageDefaults(dir);
  const load: ConfigLoad = { config: { ...defaults }, problems: [], warnings: [] };
  const present: string[] = [];
  for (const file of CONFIG_FILES) if (await exists(join(dir, file))) present.push(file);
  const [file, ...others] = present;
  if (file === undefined) return load;
  if (others.length > 0) {
    load.problems.push({
      file,
      message: `found several configuration files (${present.join(", ")}); keep one`,
    });
    return load;
  }
  const read = await readConfigValue(dir, file, importer);
  if ("problem" in read) {
    load.problems.push({ file, message: read.problem });
    return load;
  }
  const notAnObject = shapeProblem(read.value);
  if (notAnObject !== undefined) {
    load.problems.push({ file, message: notAnObject });
    return load;
  }
  const values = read.value as Record<string, unknown>;
  for (const [key, value] of Object.entries(values)) {
    const check = Object.hasOwn(CHECKS, key) ? CHECKS[key as keyof ServerConfig] : undefined;
    if (check === undefined) {
      load.warnings.push({
        file,
        message: `"${key}" is not an option and is ignored; the options are ${Object.keys(CHECKS).join(", ")}`,
      });
      continue;
    }
    if (value === undefined) continue;
    const warn = (message: string) => load.warnings.push({ file, message });
    for (const problem of check(value, warn)) {
      load.problems.push({ file, message: describeProblem(key, problem) });
    }
  }
  if (load.problems.length === 0) {
    const known = Object.fromEntries(
      Object.entries(values).filter(([key]) => Object.hasOwn(CHECKS, key)),
    );
    load.config = { ...defaults, ...known, file };
  }
  return load;
}
