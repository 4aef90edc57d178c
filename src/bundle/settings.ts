import { STATE_KEY_ENV } from "../server/index.js";
import { REDIS_URL_ENV } from "../server/replicas/redis-options.js";
import {
  AUTH_AUDIENCE_ENV,
  AUTH_ISSUER_ENV,
  oauthFromEnvironment,
} from "../transports/http/auth/environment.js";
import { AUTH_TOKEN_ENV, tokenFromEnvironment } from "../transports/http/auth-token.js";

/** Serve beyond this machine without a token, as `--allow-unauthenticated-remote` says. */
export const ALLOW_OPEN_ENV = "MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE";

/** The secrets a built bundle reads where it runs (a build's config must not hold them). */
export const SECRET_VARIABLES = [
  AUTH_TOKEN_ENV,
  AUTH_ISSUER_ENV,
  AUTH_AUDIENCE_ENV,
  STATE_KEY_ENV,
] as const;

/** Every variable a built bundle reads. */
export const SETTING_VARIABLES = [
  ...SECRET_VARIABLES,
  ALLOW_OPEN_ENV,
  REDIS_URL_ENV,
  "PORT",
] as const;
export type SettingVariable = (typeof SETTING_VARIABLES)[number];

/** What each variable sets, as a bundle's --help lists it: lines of at most 57 characters. */
export const SETTING_HELP: Readonly<Record<SettingVariable, readonly string[]>> = {
  [AUTH_TOKEN_ENV]: ['Require "Authorization: Bearer <token>" (as --auth-token)'],
  [AUTH_ISSUER_ENV]: [
    "Accept OAuth access tokens from this authorization",
    "server (as --auth-issuer)",
  ],
  [AUTH_AUDIENCE_ENV]: [
    "What tokens must carry in aud (as --auth-audience;",
    "default: this endpoint's URL, as clients reach it)",
  ],
  [STATE_KEY_ENV]: [
    "Signs requestState, for 2026-07-28 requests that ask the",
    "client: 32 bytes or more, one secret on every replica",
    "(default: a random key of this process)",
  ],
  [ALLOW_OPEN_ENV]: ['"1" or "true": as --allow-unauthenticated-remote'],
  [REDIS_URL_ENV]: [
    "Refused: a built bundle does not connect to Redis (run",
    "the server directory with mcp-dir serve for that)",
  ],
  PORT: ["The HTTP port when --port is not given"],
};

/** One runtime's environment: `process.env`, `Deno.env`, or a Worker's `env` bindings. */
export type Environment = (name: SettingVariable) => string | undefined;

/** What a built bundle takes from its runtime's environment. */
export interface BundleSettings {
  readonly authToken: string | undefined;
  /** OAuth: the authorization server whose tokens to accept, and this server's URL in them. */
  readonly auth: { readonly issuer?: string; readonly audience?: string } | undefined;
  /** Signs `requestState`; replicas and Worker isolates must share it. */
  readonly stateKey: string | undefined;
  readonly allowUnauthenticatedRemote: boolean;
  readonly port: string | undefined;
}

/** A bundle has no Redis client (it does not connect to Redis): a URL given to it is refused, not ignored. */
const NO_REDIS = `${REDIS_URL_ENV} is set, but a built bundle does not connect to Redis: its replicas would share no tasks, resource updates or 2025 streams. Unset it, or run the server directory with mcp-dir serve, which shares them through Redis`;

/** Reads the settings; throws, saying what to change, when one cannot be used. */
export function readSettings(environment: Environment): BundleSettings {
  if (environment(REDIS_URL_ENV)) throw new Error(NO_REDIS);
  const token = tokenFromEnvironment(environment(AUTH_TOKEN_ENV));
  if ("problem" in token) throw new Error(token.problem);
  const oauth = oauthFromEnvironment((name) => environment(name as SettingVariable));
  if ("problem" in oauth) throw new Error(oauth.problem);
  const open = environment(ALLOW_OPEN_ENV);
  if (open !== undefined && !["1", "true", "0", "false", ""].includes(open)) {
    throw new Error(`${ALLOW_OPEN_ENV} must be "1" or "true" (or "0", "false"), got '${open}'`);
  }
  return {
    authToken: token.token,
    auth: oauth.issuer === undefined && oauth.audience === undefined ? undefined : oauth,
    stateKey: environment(STATE_KEY_ENV) || undefined,
    allowUnauthenticatedRemote: open === "1" || open === "true",
    port: environment("PORT"),
  };
}

interface DenoRuntime {
  permissions: { querySync(descriptor: { name: "env"; variable: string }): { state: string } };
  env: { get(name: string): string | undefined };
  exit(code: number): never;
}

/** Deno, when this is Deno. */
export function deno(): DenoRuntime | undefined {
  return (globalThis as { Deno?: DenoRuntime }).Deno;
}

/**
 * The environment of the process this runs in. Deno reads a variable only
 * with permission: without it, start-up fails naming the flag to pass, rather
 * than every request failing later.
 */
export function processEnvironment(
  needed: readonly SettingVariable[] = SETTING_VARIABLES,
): Environment {
  const runtime = deno();
  if (runtime === undefined) return (name) => process.env[name];
  const denied = needed.filter(
    (variable) => runtime.permissions.querySync({ name: "env", variable }).state !== "granted",
  );
  if (denied.length > 0) {
    throw new Error(
      `Deno does not let this server read its settings from the environment (${denied.join(", ")}); run it with --allow-env (or --allow-env=${needed.join(",")})`,
    );
  }
  return (name) => runtime.env.get(name);
}

/** A Worker's `env` bindings: text variables and secrets; anything else is not a setting. */
export function bindingsEnvironment(env: unknown): Environment {
  const bindings = (typeof env === "object" && env !== null ? env : {}) as Record<string, unknown>;
  return (name) => {
    const value = bindings[name];
    return typeof value === "string" ? value : undefined;
  };
}
