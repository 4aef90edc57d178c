import { MAX_TIMEOUT_MS } from "../../define/timeout.js";
import { withoutPassword } from "./redis-link.js";

/** The variable a deployment sets to the same Redis on every replica. */
export const REDIS_URL_ENV = "MCP_DIR_REDIS_URL";

/** Where replicas share tasks, resource updates and 2025 streams. */
export interface RedisOptions {
  /** `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
  /**
   * Before every key and channel, so servers can share one Redis without
   * hearing each other. Default `mcp-dir:<server name>:`.
   */
  prefix?: string;
  /**
   * How long (ms) a replica that stops renewing its lease is still taken
   * to live: then its unfinished tasks fail, and the streams it sent end.
   * It renews the lease three times as often. Default 10 seconds.
   */
  leaseMs?: number;
}

export interface ResolvedRedisOptions {
  readonly url: string;
  readonly prefix: string;
  readonly leaseMs: number;
}

const DEFAULT_LEASE_MS = 10_000;

/** The settings a `redis` option gives: a URL, or the options; a clear error for anything else. */
export function resolveRedisOptions(
  given: string | RedisOptions,
  serverName: string,
): ResolvedRedisOptions {
  const options = typeof given === "string" ? { url: given } : given;
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      `redis must be a redis:// URL or { url, prefix?, leaseMs? }, got ${JSON.stringify(given)}`,
    );
  }
  const problem = redisUrlProblem(options.url);
  if (problem !== undefined) throw new TypeError(`redis.url ${problem}`);
  const { prefix = `mcp-dir:${serverName}:`, leaseMs = DEFAULT_LEASE_MS } = options;
  if (typeof prefix !== "string") {
    throw new TypeError(`redis.prefix must be text, got ${JSON.stringify(prefix)}`);
  }
  if (!(Number.isInteger(leaseMs) && leaseMs >= 100 && leaseMs <= MAX_TIMEOUT_MS)) {
    throw new TypeError(
      `redis.leaseMs must be a whole number of milliseconds from 100 to ${MAX_TIMEOUT_MS}, got ${leaseMs}`,
    );
  }
  return { url: options.url, prefix, leaseMs };
}

/** What is wrong with a Redis URL, said as "must ...", or undefined. */
export function redisUrlProblem(url: unknown): string | undefined {
  const must = `must be a redis:// or rediss:// URL, such as redis://127.0.0.1:6379`;
  if (typeof url !== "string") return `${must}, got ${JSON.stringify(url)}`;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return `${must}, got "${withoutPassword(url)}"`;
  }
  return protocol === "redis:" || protocol === "rediss:"
    ? undefined
    : `${must}, got "${withoutPassword(url)}"`;
}
