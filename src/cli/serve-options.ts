import type { HttpServeOptions } from "../index.js";
import {
  audienceProblem,
  oauthFromEnvironment,
  urlProblem,
} from "../transports/http/auth/environment.js";
import { AUTH_TOKEN_ENV, tokenFromEnvironment } from "../transports/http/auth-token.js";
import { type ParsedArgs, UsageError } from "./parse-args.js";

/** The options `serve` and `dev` share: how the server is reached. */
export const TRANSPORT_OPTIONS = {
  http: { type: "boolean" },
  port: { type: "string" },
  host: { type: "string" },
  path: { type: "string" },
  "auth-token": { type: "string" },
  "auth-issuer": { type: "string" },
  "auth-audience": { type: "string" },
  "allow-unauthenticated-remote": { type: "boolean" },
  "max-sessions": { type: "string" },
  "max-sessions-per-caller": { type: "string" },
} as const;

export const TRANSPORT_HELP = `  --http               Serve Streamable HTTP instead of stdio
  --port <n>           HTTP port (default 3000; 0 picks a free one)
  --host <host>        Interface to bind (default 127.0.0.1: this machine only)
  --path <path>        The MCP endpoint (default /mcp)
  --auth-token <t>     Require "Authorization: Bearer <t>" (or set MCP_DIR_AUTH_TOKEN)
  --auth-issuer <url>  Accept OAuth access tokens from this authorization server
                       (or set MCP_DIR_AUTH_ISSUER)
  --auth-audience <id>
                       What tokens must carry in aud: a URL or the id your provider
                       writes there (or set MCP_DIR_AUTH_AUDIENCE; default: this
                       endpoint's URL, as clients reach it)
  --allow-unauthenticated-remote
                       Serve a non-loopback --host without a token (refused otherwise)
  --max-sessions <n>   HTTP sessions open at once, and 2026 listen streams (default 1000 each)
  --max-sessions-per-caller <n>
                       What one caller an access token names (its subject or
                       client) may hold of each (default: a tenth of them); with
                       no OAuth (none, or --auth-token) only --max-sessions holds`;

export type HttpFlags = Pick<
  HttpServeOptions,
  | "port"
  | "host"
  | "path"
  | "authToken"
  | "allowUnauthenticatedRemote"
  | "maxSessions"
  | "maxSessionsPerCaller"
> & { auth?: { issuer?: string; audience?: string } };

/**
 * The configuration's HTTP options with the command line's over them; the
 * `auth` settings merge field by field, so `--auth-issuer` keeps the
 * config's introspection credentials.
 */
export function withFlags(
  config: HttpServeOptions | undefined,
  flags: HttpFlags,
): HttpServeOptions {
  const merged: HttpServeOptions = { ...config, ...flags };
  if (config?.auth !== undefined || flags.auth !== undefined) {
    merged.auth = { ...config?.auth, ...flags.auth };
  }
  return merged;
}

/**
 * undefined: stdio. Otherwise the HTTP options given on the command line, and
 * the token from the environment. `program` names whose help a mistake points
 * to: mcp-dir's, or a built bundle's.
 */
export function httpFlags(
  values: ParsedArgs["values"],
  command: string,
  program?: string,
): HttpFlags | undefined {
  const usage = (message: string) => new UsageError(message, command, program);
  const given = (
    [
      "port",
      "host",
      "path",
      "auth-token",
      "auth-issuer",
      "auth-audience",
      "allow-unauthenticated-remote",
      "max-sessions",
      "max-sessions-per-caller",
    ] as const
  ).filter((k) => values[k] !== undefined);
  if (values.http !== true) {
    if (given.length > 0) throw usage(`--${given[0]} needs --http`);
    return undefined;
  }
  const flags: HttpFlags = {};
  if (typeof values.port === "string") {
    const port = portNumber(values.port);
    if (port === undefined)
      throw usage(`--port must be a number from 0 to 65535, got '${values.port}'`);
    flags.port = port;
  }
  if (typeof values.host === "string") {
    // An empty host would make node listen on every interface.
    if (values.host.trim() === "") throw usage("--host must not be empty");
    flags.host = values.host;
  }
  if (typeof values.path === "string") {
    if (!/^\/[^?#\s]*$/.test(values.path)) {
      throw usage(
        `--path must start with "/" and hold no query, fragment or space, got '${values.path}'`,
      );
    }
    flags.path = values.path;
  }
  for (const [flag, key] of [
    ["max-sessions", "maxSessions"],
    ["max-sessions-per-caller", "maxSessionsPerCaller"],
  ] as const) {
    const max = values[flag];
    if (typeof max !== "string") continue;
    if (!/^\d+$/.test(max) || Number(max) < 1) {
      throw usage(`--${flag} must be a whole number of 1 or more, got '${max}'`);
    }
    flags[key] = Number(max);
  }
  if (values["allow-unauthenticated-remote"] === true) flags.allowUnauthenticatedRemote = true;
  const token = authToken(values["auth-token"], usage);
  if (token !== undefined) flags.authToken = token;
  const oauth = oauthFlags(values, usage);
  if (oauth.issuer !== undefined || oauth.audience !== undefined) flags.auth = oauth;
  return flags;
}

/** --auth-issuer and --auth-audience, each over its variable. */
function oauthFlags(
  values: ParsedArgs["values"],
  usage: (message: string) => UsageError,
): { issuer?: string; audience?: string } {
  const fromEnv = oauthFromEnvironment((name) => process.env[name]);
  if ("problem" in fromEnv) throw usage(fromEnv.problem);
  const found = { ...fromEnv };
  for (const key of ["issuer", "audience"] as const) {
    const flag = values[`auth-${key}`];
    if (typeof flag !== "string") continue;
    const problem = key === "issuer" ? urlProblem(flag) : audienceProblem(flag);
    if (problem !== undefined) throw usage(`--auth-${key} ${problem}`);
    found[key] = flag;
  }
  return found;
}

/** A port number from text, or undefined when it is not one. */
export function portNumber(text: string): number | undefined {
  const port = Number(text);
  return /^\d+$/.test(text) && port <= 65535 ? port : undefined;
}

/**
 * The flag wins over the environment. An empty flag is refused rather than
 * read as "no auth" (`--auth-token "$UNSET"` must not serve without a token),
 * and so is a variable set to nothing.
 */
function authToken(
  flag: string | boolean | undefined,
  usage: (message: string) => UsageError,
): string | undefined {
  if (typeof flag === "string") {
    if (!/^\S+$/.test(flag)) throw usage("--auth-token must be a non-empty token without spaces");
    return flag;
  }
  const fromEnv = tokenFromEnvironment(process.env[AUTH_TOKEN_ENV]);
  if ("problem" in fromEnv) throw usage(fromEnv.problem);
  return fromEnv.token;
}
