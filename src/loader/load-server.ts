import { REDIS_URL_ENV } from "../server/replicas/redis-options.js";
import { createServer, type McpServer, type ServerOptions } from "../server/server.js";
import { applyToRegistry } from "./apply.js";
import { type DirectoryLoad, type LoadDirectoryOptions, loadDirectory } from "./load-directory.js";
import type { LoadProblem } from "./problems.js";
import { ReloadableModules } from "./reloadable-modules.js";
import type { ScanPatterns } from "./scan.js";
import { serverOptionsFrom } from "./server-options.js";
import { viewLinkWarnings } from "./view-links.js";

export interface LoadedServer {
  readonly server: McpServer;
  readonly load: DirectoryLoad;
  /** Problems of the files and between them (name collisions); empty when all is well. */
  readonly problems: LoadProblem[];
}

/**
 * Loads a server directory into a new server configured by its config file.
 * The definitions that loaded are registered even when others have problems,
 * so every problem (collisions included) is found in one pass; serve only a
 * server whose `problems` is empty.
 */
export async function loadServer(
  dir: string,
  overrides: Partial<ServerOptions> = {},
  options: LoadDirectoryOptions = {},
): Promise<LoadedServer> {
  const loadedAt = Date.now();
  const load = await loadDirectory(dir, options);
  const configured = serverOptionsFrom(load.config, load.folders, process.env[REDIS_URL_ENV]);
  const server = createServer({ ...configured, ...overrides });
  const problems = [...load.problems, ...applyToRegistry(server.registry, load.sources)];
  load.warnings.push(...viewLinkWarnings(server.registry));
  if (load.importer instanceof ReloadableModules) {
    loads.set(server, {
      root: load.dir,
      importer: load.importer,
      patterns: load.config,
      loadedAt,
    });
  }
  return { server, load, problems };
}

/** A directory a server was loaded from: where, what imported its code, what loads. */
export interface DirectorySource {
  readonly root: string;
  readonly importer: ReloadableModules;
  readonly patterns: ScanPatterns;
  /** When the load began (`Date.now()`): a file changed later may hold what it did not read. */
  readonly loadedAt: number;
}

const loads = new WeakMap<McpServer, DirectorySource>();

/** The directory `loadServer` made `server` from, for a watcher to carry its load on. */
export function loadedFrom(server: McpServer): DirectorySource | undefined {
  return loads.get(server);
}
