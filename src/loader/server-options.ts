import { REDIS_URL_ENV, redisUrlProblem } from "../server/replicas/redis-options.js";
import type { ServerOptions } from "../server/server.js";
import type { ResolvedConfig } from "./config.js";
import type { DefinitionFolder } from "./folders.js";

/**
 * The server a configuration describes, announcing the definition folders it
 * has; `redisUrl` is MCP_DIR_REDIS_URL's value (a built bundle, which does
 * not connect to Redis, gives none).
 */
export function serverOptionsFrom(
  config: ResolvedConfig,
  folders: readonly DefinitionFolder[],
  redisUrl: string | undefined,
): ServerOptions {
  return {
    name: config.name,
    version: config.version,
    ...(config.title !== undefined && { title: config.title }),
    ...(config.description !== undefined && { description: config.description }),
    ...(config.instructions !== undefined && { instructions: config.instructions }),
    ...(config.pageSize !== undefined && { pageSize: config.pageSize }),
    ...(config.logLevel !== undefined && { logLevel: config.logLevel }),
    ...(config.inputRounds !== undefined && { inputRounds: config.inputRounds }),
    ...(config.tasks !== undefined && { tasks: config.tasks }),
    ...(config.callTimeoutMs !== undefined && { callTimeoutMs: config.callTimeoutMs }),
    ...(config.maxResultBytes !== undefined && { maxResultBytes: config.maxResultBytes }),
    ...(config.maxSubscriptions !== undefined && { maxSubscriptions: config.maxSubscriptions }),
    ...(config.memoryBudgetBytes !== undefined && {
      memoryBudgetBytes: config.memoryBudgetBytes,
    }),
    ...(config.middleware !== undefined && { middleware: config.middleware }),
    ...redisOf(config, redisUrl),
    // Views are resources.
    announce: [...new Set(folders.map((folder) => (folder === "views" ? "resources" : folder)))],
  };
}

/** The Redis URL the configuration names, if any (`redis` is a URL, or settings with one). */
export function configuredRedisUrl(config: ResolvedConfig): string | undefined {
  return typeof config.redis === "string" ? config.redis : config.redis?.url;
}

/** Redis: the URL from the environment, else the configuration's, with the configuration's settings. */
function redisOf(
  config: ResolvedConfig,
  fromEnv: string | undefined,
): Pick<ServerOptions, "redis"> {
  const settings = typeof config.redis === "string" ? { url: config.redis } : config.redis;
  if (fromEnv !== undefined && fromEnv !== "") {
    const problem = redisUrlProblem(fromEnv);
    if (problem !== undefined) throw new TypeError(`${REDIS_URL_ENV} ${problem}`);
  }
  const url = fromEnv || configuredRedisUrl(config);
  return url === undefined ? {} : { redis: { ...settings, url } };
}
