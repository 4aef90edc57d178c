import type { HttpServeOptions } from "../index.js";
import { type ParsedArgs, UsageError } from "./parse-args.js";

/** The options `serve` and `dev` share: how the server is reached. */
export const TRANSPORT_OPTIONS = {
  http: { type: "boolean" },
  port: { type: "string" },
  host: { type: "string" },
  path: { type: "string" },
  "auth-token": { type: "string" },
  "allow-unauthenticated-remote": { type: "boolean" },
  "max-sessions": { type: "string" },
} as const;

export const TRANSPORT_HELP = `  --http               Serve Streamable HTTP instead of stdio
  --port <n>           HTTP port (default 3000; 0 picks a free one)
  --host <host>        Interface to bind (default 127.0.0.1: this machine only)
  --path <path>        The MCP endpoint (default /mcp)
  --auth-token <t>     Require "Authorization: Bearer <t>" (or set MCP_DIR_AUTH_TOKEN)
  --allow-unauthenticated-remote
                       Serve a non-loopback --host without a token (refused otherwise)
  --max-sessions <n>   HTTP sessions open at once, and 2026 listen streams (default 1000 each)`;

/** The token may come from the environment, so it stays out of process listings. */
export const AUTH_TOKEN_ENV = "MCP_DIR_AUTH_TOKEN";

export type HttpFlags = Pick<
  HttpServeOptions,
  "port" | "host" | "path" | "authToken" | "allowUnauthenticatedRemote" | "maxSessions"
>;

/** undefined: stdio. Otherwise the HTTP options given on the command line. */
export function httpFlags(values: ParsedArgs["values"], command: string): HttpFlags | undefined {
  const given = (
    ["port", "host", "path", "auth-token", "allow-unauthenticated-remote", "max-sessions"] as const
  ).filter((k) => values[k] !== undefined);
  if (values.http !== true) {
    if (given.length > 0) throw new UsageError(`--${given[0]} needs --http`, command);
    return undefined;
  }
  const flags: HttpFlags = {};
  if (typeof values.port === "string") {
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) {
      throw new UsageError(
        `--port must be a number from 0 to 65535, got '${values.port}'`,
        command,
      );
    }
    flags.port = port;
  }
  if (typeof values.host === "string") {
    // An empty host would make node listen on every interface.
    if (values.host.trim() === "") throw new UsageError("--host must not be empty", command);
    flags.host = values.host;
  }
  if (typeof values.path === "string") {
    if (!/^\/[^?#\s]*$/.test(values.path)) {
      throw new UsageError(
        `--path must start with "/" and hold no query, fragment or space, got '${values.path}'`,
        command,
      );
    }
    flags.path = values.path;
  }
  if (typeof values["max-sessions"] === "string") {
    const max = values["max-sessions"];
    if (!/^\d+$/.test(max) || Number(max) < 1) {
      throw new UsageError(
        `--max-sessions must be a whole number of 1 or more, got '${max}'`,
        command,
      );
    }
    flags.maxSessions = Number(max);
  }
  if (values["allow-unauthenticated-remote"] === true) flags.allowUnauthenticatedRemote = true;
  const token = authToken(values["auth-token"], command);
  if (token !== undefined) flags.authToken = token;
  return flags;
}

/**
 * The flag wins over the environment. An empty flag is refused rather than
 * read as "no auth" (`--auth-token "$UNSET"` must not serve without a token),
 * and so is a variable set to nothing. A token with white space could never
 * match an Authorization header, so it is refused too.
 */
function authToken(flag: string | boolean | undefined, command: string): string | undefined {
  if (typeof flag === "string") {
    if (!/^\S+$/.test(flag)) {
      throw new UsageError("--auth-token must be a non-empty token without spaces", command);
    }
    return flag;
  }
  const fromEnv = process.env[AUTH_TOKEN_ENV];
  if (fromEnv === undefined) return undefined;
  if (fromEnv === "") {
    throw new UsageError(
      `${AUTH_TOKEN_ENV} is set but empty; set it to a token, or unset it to serve without auth`,
      command,
    );
  }
  if (!/^\S+$/.test(fromEnv)) {
    throw new UsageError(`${AUTH_TOKEN_ENV} must be a token without spaces`, command);
  }
  return fromEnv;
}
