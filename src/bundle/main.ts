import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HTTP_HINTS } from "../cli/http-flag-word.js";
import { parseCommandArgs, UsageError } from "../cli/parse-args.js";
import {
  httpFlags,
  portNumber,
  TRANSPORT_HELP,
  TRANSPORT_OPTIONS,
  withFlags,
} from "../cli/serve-options.js";
import type { HttpServeOptions } from "../transports/http/serve.js";
import { serveHttp } from "../transports/http/serve.js";
import { serveStdio } from "../transports/stdio.js";
import { type Bundle, createBundledServer } from "./runtime.js";
import { nativeListener, serveNative } from "./serve-native.js";
import {
  deno,
  processEnvironment,
  readSettings,
  SETTING_HELP,
  SETTING_VARIABLES,
} from "./settings.js";
import { shownPath } from "./shown-path.js";

/** Whether the module at `url` is the program being run (Node before 24 has no import.meta.main). */
export function isEntry(url: string): boolean {
  const started = process.argv[1];
  if (started === undefined) return false;
  try {
    return realpathSync(fileURLToPath(url)) === realpathSync(started);
  } catch {
    return false;
  }
}

/** How the user ran this bundle, for its help and the help a mistake points to: "node dist-mcp/server.mjs". */
function programName(): string {
  const runtime = deno() ? "deno run" : "Bun" in globalThis ? "bun" : "node";
  return `${runtime} ${shownPath(process.argv[1] ?? "server.mjs")}`;
}

/** The width of the help's first column (TRANSPORT_HELP's): a description starts after it. */
const COLUMN = 23;

/** Every variable the bundle reads, and what it sets, in TRANSPORT_HELP's two columns. */
function environmentHelp(): string {
  return SETTING_VARIABLES.map((variable) => {
    const [first = "", ...rest] = SETTING_HELP[variable];
    const name = `  ${variable}`;
    const lines =
      name.length <= COLUMN - 2 ? [`${name.padEnd(COLUMN)}${first}`] : [name, indent(first)];
    return [...lines, ...rest.map(indent)].join("\n");
  }).join("\n");
}

const indent = (line: string) => `${" ".repeat(COLUMN)}${line}`;

function usage(program: string, bundle: Bundle): string {
  const { name, version } = bundle.config;
  const denoNeeds = deno()
    ? `\nDeno reads them only with --allow-env, or with just their names:
--allow-env=${SETTING_VARIABLES.join(",")}
and serves HTTP only with --allow-net.\n`
    : "";
  return `Usage: ${program} [--http [options]]

Serves ${name} ${version}, an MCP server built by mcp-dir build, over stdio,
or over Streamable HTTP with --http (at /mcp on 127.0.0.1:3000 unless the
options, PORT or the build's mcp-dir.config say otherwise), as
\`mcp-dir serve\` does.

Options:
${TRANSPORT_HELP}
  -h, --help           Show this help

Environment (a flag given wins over its variable):
${environmentHelp()}
${denoNeeds}`;
}

/**
 * What a built bundle does when run as a program: stdio by default, HTTP
 * with --http, with `mcp-dir serve`'s options and messages. Node serves
 * HTTP with node:http, Bun and Deno with their own listener; all go through
 * the one HTTP door, sessions included. A mistake or a failure to start is
 * one line on stderr, and the exit code serve gives (2, 1).
 */
export async function runBundled(bundle: Bundle, argv: string[]): Promise<void> {
  const program = programName();
  try {
    await run(bundle, argv, program);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`mcp-dir: ${message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
}

async function run(bundle: Bundle, argv: string[], program: string): Promise<void> {
  const { values, help } = parseCommandArgs("", argv, TRANSPORT_OPTIONS, 0, {
    program,
    hints: HTTP_HINTS,
  });
  if (help) {
    // stdout is the stdio protocol channel of this very program: help goes to stderr.
    process.stderr.write(usage(program, bundle));
    return;
  }
  const settings = readSettings(processEnvironment());
  const server = createBundledServer(bundle, settings.stateKey);
  const { name, version } = server.serverInfo();
  const flags = httpFlags(values, "", program);
  if (!flags) {
    process.stderr.write(`mcp-dir: serving ${name} ${version} (built) over stdio\n`);
    await serveStdio(server);
    // What the input asked is answered: tasks still running end failed, as `serve`'s do.
    await server.close();
    return;
  }
  const options = withFlags(bundle.config.http as HttpServeOptions | undefined, flags);
  // The variable says what the flag says (it has no "no" of its own to undo).
  if (settings.allowUnauthenticatedRemote) options.allowUnauthenticatedRemote = true;
  if (flags.port === undefined && settings.port !== undefined) {
    const port = portNumber(settings.port);
    if (port === undefined) {
      throw new UsageError(
        `PORT must be a number from 0 to 65535, got '${settings.port}'`,
        "",
        program,
      );
    }
    options.port = port;
  }
  const native = nativeListener();
  const url = native
    ? await serveNative(server, options, native)
    : (await serveHttp(server, { ...options, handleSignals: true })).url;
  process.stderr.write(`mcp-dir: serving ${name} ${version} (built) at ${url}\n`);
}
