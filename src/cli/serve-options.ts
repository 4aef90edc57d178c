import type { HttpServeOptions } from "../index.js";
import { type ParsedArgs, UsageError } from "./parse-args.js";

/** The options `serve` and `dev` share: how the server is reached. */
export const TRANSPORT_OPTIONS = {
  http: { type: "boolean" },
  port: { type: "string" },
  host: { type: "string" },
  path: { type: "string" },
  "auth-token": { type: "string" },
} as const;

export const TRANSPORT_HELP = `  --http               Serve Streamable HTTP instead of stdio
  --port <n>           HTTP port (default 3000; 0 picks a free one)
  --host <host>        Interface to bind (default 127.0.0.1: this machine only)
  --path <path>        The MCP endpoint (default /mcp)
  --auth-token <t>     Require "Authorization: Bearer <t>" (or set MCP_DIR_AUTH_TOKEN)`;

/** The token may come from the environment, so it stays out of process listings. */
export const AUTH_TOKEN_ENV = "MCP_DIR_AUTH_TOKEN";

export type HttpFlags = Pick<HttpServeOptions, "port" | "host" | "path" | "authToken">;

/** undefined: stdio. Otherwise the HTTP options given on the command line. */
export function httpFlags(values: ParsedArgs["values"], command: string): HttpFlags | undefined {
  const given = (["port", "host", "path", "auth-token"] as const).filter(
    (k) => values[k] !== undefined,
  );
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
  if (typeof values.host === "string") flags.host = values.host;
  if (typeof values.path === "string") flags.path = values.path;
  const token =
    typeof values["auth-token"] === "string" ? values["auth-token"] : process.env[AUTH_TOKEN_ENV];
  if (token !== undefined && token !== "") flags.authToken = token;
  return flags;
}
