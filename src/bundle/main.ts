import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { McpServer } from "../server/server.js";
import { createFetchHandler } from "../transports/fetch/handler.js";
import { serveHttp } from "../transports/http/serve.js";
import { serveStdio } from "../transports/stdio.js";

const USAGE = `Usage: node server.mjs [--http [--port <n>] [--host <host>] [--allow-unauthenticated-remote]]

Serves the built MCP server over stdio, or over HTTP at /mcp with --http
(port from --port or PORT, default 3000; host default 127.0.0.1). With
MCP_DIR_AUTH_TOKEN set, every HTTP request needs "Authorization: Bearer <it>";
Node refuses a non-loopback host without it unless
--allow-unauthenticated-remote says the server is meant to be open.`;

type DenoServe = (
  options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
  handler: (request: Request) => Promise<Response>,
) => unknown;
type BunServe = (options: {
  port: number;
  hostname: string;
  fetch: (request: Request) => Promise<Response>;
}) => { port: number };

/** Whether the module at `url` is the program being run (not imported by another). */
export function isEntry(url: string): boolean {
  const started = process.argv[1];
  if (started === undefined) return false;
  try {
    return realpathSync(fileURLToPath(url)) === realpathSync(started);
  } catch {
    return false;
  }
}

/**
 * What a built bundle does when run: stdio by default, HTTP with --http.
 * Deno and Bun serve HTTP natively with the web-standard handler (stateless:
 * 2026-07-28, and 2025 clients without sessions); Node uses the full
 * Streamable HTTP transport, sessions included.
 */
export async function runBundled(server: McpServer, argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      http: { type: "boolean" },
      port: { type: "string" },
      host: { type: "string" },
      "allow-unauthenticated-remote": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    // stdout is the stdio protocol channel of this very program: help goes to stderr.
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const { name, version } = server.serverInfo();
  if (!values.http) {
    process.stderr.write(`mcp-dir: serving ${name} ${version} (built) over stdio\n`);
    await serveStdio(server);
    return;
  }
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  const hostname = values.host ?? "127.0.0.1";
  const announce = (bound: number) =>
    process.stderr.write(
      `mcp-dir: serving ${name} ${version} (built) at http://${hostname}:${bound}/mcp\n`,
    );
  const authToken = process.env.MCP_DIR_AUTH_TOKEN || undefined;
  const runtime = globalThis as { Deno?: { serve: DenoServe }; Bun?: { serve: BunServe } };
  if (runtime.Deno || runtime.Bun) {
    const fetch = createFetchHandler(server, authToken === undefined ? {} : { authToken });
    if (runtime.Deno) {
      runtime.Deno.serve({ port, hostname, onListen: (addr) => announce(addr.port) }, fetch);
    } else if (runtime.Bun) {
      announce(runtime.Bun.serve({ port, hostname, fetch }).port);
    }
    return;
  }
  const serving = await serveHttp(server, {
    port,
    host: hostname,
    handleSignals: true,
    ...(authToken !== undefined && { authToken }),
    ...(values["allow-unauthenticated-remote"] === true && { allowUnauthenticatedRemote: true }),
  });
  announce(Number(new URL(serving.url).port));
}
