import { isMiddlewareDefinition } from "../define/middleware.js";
import { isStringArray } from "../define/string-array.js";
import { MAX_TIMEOUT_MS, timeoutProblem } from "../define/timeout.js";
import { LOGGING_LEVELS, type LoggingLevel } from "../protocol/types.js";
import { redisUrlProblem } from "../server/replicas/redis-options.js";
import { type HttpAuthOptions, resolveAuthOptions } from "../settings/auth-options.js";
import type { HttpListenOptions } from "../settings/http-listen-options.js";
import { resolveHttpOptions } from "../settings/http-options.js";
import { resolveListenerLimits } from "../settings/listener-limits.js";
import type { ServerConfig } from "./config.js";
import { DEFINITION_FOLDERS } from "./folders.js";

/**
 * What is wrong with one option's value, each said as "must ..." (the option
 * itself), "<field> must ..." or "[<index>] must ..." (a part of it). Options it
 * ignores are told to `warn`.
 */
export type Check = (value: unknown, warn: (message: string) => void) => string[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A check of one condition, with what to say when it fails. */
const must =
  (holds: (value: unknown) => boolean, problem: string): Check =>
  (value) =>
    holds(value) ? [] : [problem];

const text = must((value) => typeof value === "string", "must be text");
const wholeNumber = (what: string) =>
  must((value) => Number.isInteger(value) && (value as number) >= 0, `must be ${what}`);
const wholeBytes = wholeNumber("a whole number of bytes, 0 (no limit) or more");
const problems = (problem: string | undefined) => (problem === undefined ? [] : [problem]);

/** Each glob: relative to the server directory, positive, and (for include) in a folder that loads. */
function globs(example: string, underFolders: boolean): Check {
  return (value) => {
    if (!isStringArray(value)) return [`must be a list of glob patterns, such as ["${example}"]`];
    const problems: string[] = [];
    for (const [index, pattern] of (value as string[]).entries()) {
      const at = `[${index}] must`;
      const first = pattern.split("/")[0] ?? "";
      if (pattern.trim() === "") problems.push(`${at} not be empty`);
      else if (pattern.startsWith("!")) {
        problems.push(
          `${at} not start with "!"; list the pattern in ${underFolders ? "exclude" : "include"} instead`,
        );
      } else if (pattern.startsWith("/") || /^[A-Za-z]:/.test(pattern)) {
        problems.push(`${at} be relative to the server directory, got "${pattern}"`);
      } else if (pattern.split("/").includes("..")) {
        problems.push(`${at} stay inside the server directory (no ".."), got "${pattern}"`);
      } else if (underFolders && !(DEFINITION_FOLDERS as readonly string[]).includes(first)) {
        problems.push(
          `${at} start with tools/, prompts/, resources/ or views/ (the folders that load), got "${pattern}"`,
        );
      }
    }
    return problems;
  };
}

/**
 * Warns of each field of `value` that `fields` does not name: `option` says
 * where it sits (`http`, `http.auth`), and the warning lists what it takes.
 */
function warnUnknownFields(
  value: Record<string, unknown>,
  fields: Readonly<Record<string, unknown>>,
  option: string,
  warn: (message: string) => void,
): void {
  for (const field of Object.keys(value)) {
    if (Object.hasOwn(fields, field)) continue;
    warn(
      `"${option}.${field}" is not an option and is ignored; the ${option} options are ${Object.keys(fields).join(", ")}`,
    );
  }
}

/** The fields of `http.auth`, of its `introspection` and of `http.replay`, as the transport reads them. */
const AUTH_FIELDS: Record<keyof HttpAuthOptions, true> = {
  issuer: true,
  audience: true,
  jwksUri: true,
  algorithms: true,
  clockToleranceSeconds: true,
  introspection: true,
  verifyToken: true,
};
const INTROSPECTION_FIELDS: Record<keyof NonNullable<HttpAuthOptions["introspection"]>, true> = {
  clientId: true,
  clientSecret: true,
  endpoint: true,
};
const REPLAY_FIELDS: Record<keyof NonNullable<HttpListenOptions["replay"]>, true> = {
  maxEvents: true,
  maxBytes: true,
  maxTotalBytes: true,
};

/** What a resolver of the HTTP settings refuses in `options`, its message as is. */
function refusedBy<T>(resolve: (options: T) => unknown, options: T): string[] {
  try {
    resolve(options);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

/** The rules of the HTTP door for one field (resolveHttpOptions). */
const transportRule = (options: HttpListenOptions) => refusedBy(resolveHttpOptions, options);

/** The rules of serveHttp's own listener (time limits, connection cap) for one field. */
const listenerRule = (options: HttpListenOptions) => refusedBy(resolveListenerLimits, options);

/** A field the transport checks by itself (numbers: it says what it got). */
const byTransport =
  (field: keyof HttpListenOptions): Check =>
  (value) =>
    transportRule({ [field]: value });

/** Each field of `http`: its type here, its value by the transport's own rules. */
const HTTP_FIELDS: Record<keyof HttpListenOptions, Check> = {
  host: must(
    (value) => typeof value === "string" && value.trim() !== "",
    "host must be non-empty text; leave it unset to bind 127.0.0.1 (this machine only)",
  ),
  port: must(
    (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535,
    "port must be an integer from 0 to 65535",
  ),
  path: (value) =>
    typeof value === "string" ? transportRule({ path: value }) : ["path must be text"],
  allowedHosts: (value) =>
    isStringArray(value)
      ? transportRule({ allowedHosts: value })
      : ["allowedHosts must be a list of strings"],
  allowedOrigins: (value) =>
    isStringArray(value)
      ? transportRule({ allowedOrigins: value })
      : ["allowedOrigins must be a list of strings"],
  maxBodyBytes: byTransport("maxBodyBytes"),
  authToken: (value) =>
    typeof value === "string" ? transportRule({ authToken: value }) : ["authToken must be text"],
  authorizationServers: must(isStringArray, "authorizationServers must be a list of strings"),
  auth: (value, warn) => {
    if (!isObject(value)) {
      return ['auth must be an object, such as { issuer: "https://id.example.com" }'];
    }
    warnUnknownFields(value, AUTH_FIELDS, "http.auth", warn);
    if (isObject(value.introspection)) {
      warnUnknownFields(value.introspection, INTROSPECTION_FIELDS, "http.auth.introspection", warn);
    }
    return refusedBy(resolveAuthOptions, value as HttpAuthOptions);
  },
  publicUrl: must((value) => typeof value === "string", "publicUrl must be text"),
  maxSessions: byTransport("maxSessions"),
  maxSessionsPerCaller: byTransport("maxSessionsPerCaller"),
  sessionIdleTimeoutMs: byTransport("sessionIdleTimeoutMs"),
  retryMs: byTransport("retryMs"),
  keepAliveMs: byTransport("keepAliveMs"),
  headersTimeoutMs: (value) => listenerRule({ headersTimeoutMs: value as number }),
  requestTimeoutMs: (value) => listenerRule({ requestTimeoutMs: value as number }),
  maxConnections: (value) => listenerRule({ maxConnections: value as number }),
  replay: (value, warn) => {
    if (!isObject(value)) {
      return ["replay must be an object, such as { maxEvents: 500, maxBytes: 4194304 }"];
    }
    warnUnknownFields(value, REPLAY_FIELDS, "http.replay", warn);
    return transportRule({ replay: value });
  },
  allowUnauthenticatedRemote: must(
    (value) => typeof value === "boolean",
    "allowUnauthenticatedRemote must be true or false",
  ),
};

const http: Check = (value, warn) => {
  if (!isObject(value)) return ["must be an object, such as { port: 3000 }"];
  warnUnknownFields(value, HTTP_FIELDS, "http", warn);
  const problems: string[] = [];
  for (const [field, setting] of Object.entries(value)) {
    if (!Object.hasOwn(HTTP_FIELDS, field) || setting === undefined) continue;
    problems.push(...HTTP_FIELDS[field as keyof typeof HTTP_FIELDS](setting, warn));
  }
  // Each field passed on its own: the transport may still refuse them together.
  if (problems.length > 0) return problems;
  return [
    ...transportRule(value as HttpListenOptions),
    ...listenerRule(value as HttpListenOptions),
  ];
};

export const CHECKS: Record<keyof ServerConfig, Check> = {
  name: must((value) => typeof value === "string" && value !== "", "must be non-empty text"),
  version: text,
  title: text,
  description: text,
  instructions: text,
  pageSize: must(
    (value) => Number.isInteger(value) && (value as number) > 0,
    "must be a positive integer",
  ),
  logLevel: must(
    (value) => LOGGING_LEVELS.includes(value as LoggingLevel),
    `must be one of ${LOGGING_LEVELS.join(", ")}`,
  ),
  inputRounds: (value) => {
    if (!isObject(value)) return ["must be an object, such as { ttlMs: 900000, maxRounds: 10 }"];
    for (const [key, setting] of Object.entries(value)) {
      if (key !== "ttlMs" && key !== "maxRounds") {
        return [
          `must hold only ttlMs and maxRounds, not "${key}" (the signing key comes from MCP_DIR_STATE_KEY)`,
        ];
      }
      // No round at all would make every ask an error: maxRounds starts at 1.
      const least = key === "maxRounds" ? 1 : 0;
      if (!(Number.isInteger(setting) && (setting as number) >= least)) {
        return [
          `${key} must be a whole number of ${least} or more, got ${JSON.stringify(setting)}`,
        ];
      }
    }
    return [];
  },
  callTimeoutMs: (value) => {
    const problem = timeoutProblem(value);
    return problem === undefined ? [] : [problem];
  },
  maxResultBytes: wholeBytes,
  maxSubscriptions: wholeNumber("a whole number of 0 or more"),
  memoryBudgetBytes: wholeBytes,
  tasks: (value) => {
    if (!isObject(value)) {
      return [
        "must be an object, such as { ttlMs: 3600000, pollIntervalMs: 1000, maxTasks: 1000 }",
      ];
    }
    for (const [key, setting] of Object.entries(value)) {
      if (key !== "ttlMs" && key !== "pollIntervalMs" && key !== "maxTasks") {
        return [`must hold only ttlMs, pollIntervalMs and maxTasks, not "${key}"`];
      }
      if (!(Number.isInteger(setting) && (setting as number) >= 1)) {
        return [`${key} must be a whole number of 1 or more`];
      }
      if (key !== "maxTasks" && (setting as number) > MAX_TIMEOUT_MS) {
        return [`${key} must be at most ${MAX_TIMEOUT_MS} milliseconds (about 24.8 days)`];
      }
    }
    return [];
  },
  redis: (value) => {
    if (typeof value === "string") return problems(redisUrlProblem(value));
    if (!isObject(value)) {
      return [
        'must be a redis:// URL, or an object such as { url: "redis://127.0.0.1:6379", prefix: "weather:", leaseMs: 10000 }',
      ];
    }
    for (const [key, setting] of Object.entries(value)) {
      if (key === "url") {
        const problem = redisUrlProblem(setting);
        if (problem) return [`url ${problem}`];
      } else if (key === "prefix") {
        if (typeof setting !== "string") return ["prefix must be text"];
      } else if (key === "leaseMs") {
        if (!(Number.isInteger(setting) && (setting as number) >= 100)) {
          return ["leaseMs must be a whole number of milliseconds, 100 or more"];
        }
        if ((setting as number) > MAX_TIMEOUT_MS) {
          return [`leaseMs must be at most ${MAX_TIMEOUT_MS} milliseconds (about 24.8 days)`];
        }
      } else {
        return [`must hold only url, prefix and leaseMs, not "${key}"`];
      }
    }
    return [];
  },
  middleware: must(
    (value) =>
      Array.isArray(value) &&
      value.every((item) => typeof item === "function" || isMiddlewareDefinition(item)),
    "must be a list of middleware: functions (ctx, next) => ..., or defineMiddleware(...)",
  ),
  include: globs("tools/**", true),
  exclude: globs("tools/drafts/**", false),
  http,
};

/** `http.port must ...` for a field, `include[1] must ...` for an item, `pageSize must ...` for the option. */
export function describeProblem(option: string, problem: string): string {
  if (problem.startsWith("must")) return `${option} ${problem}`;
  return problem.startsWith("[") ? `${option}${problem}` : `${option}.${problem}`;
}
