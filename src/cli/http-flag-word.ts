import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type ParsedArgs, UsageError, type ValueHints } from "./parse-args.js";
import { portNumber } from "./serve-options.js";

/**
 * `--http` takes no value, yet reads like it takes a port or an address
 * (`--http 3000`, `--http 0.0.0.0:8080`): what to write instead of `word`.
 */
export function httpWordHint(word: string): string {
  if (portNumber(word) !== undefined) return `for port ${word}, write --http --port ${word}`;
  const flags = addressFlags(word);
  if (flags !== undefined) return `for ${word}, write --http ${flags}`;
  return "give the port and the address with --port <n> and --host <host>, as in --http --port 3000";
}

/** The hints `serve`, `dev` and a built bundle give for a word after --http. */
export const HTTP_HINTS: ValueHints = { http: httpWordHint };

/** `host:port`, `:port`, `[::1]:port` or an http(s) URL, as the flags that say it. */
function addressFlags(word: string): string | undefined {
  let host: string | undefined;
  let port: string | undefined;
  let path: string | undefined;
  const hostPort = /^(\[[^\]]*\]|[^:/\s]*):(\d+)$/.exec(word);
  if (hostPort) {
    [, host, port] = hostPort;
  } else if (/^https?:\/\//i.test(word) && URL.canParse(word)) {
    const url = new URL(word);
    host = url.hostname;
    port = url.port;
    if (url.pathname !== "/") path = url.pathname;
  } else {
    return undefined;
  }
  if (port !== undefined && port !== "" && portNumber(port) === undefined) return undefined;
  const flags = [
    host ? `--host ${host.replace(/^\[(.*)\]$/, "$1")}` : "",
    port ? `--port ${port}` : "",
    path ? `--path ${path}` : "",
  ].filter(Boolean);
  return flags.length > 0 ? flags.join(" ") : undefined;
}

/**
 * `serve --http 3000`: the word after --http became the directory. When
 * nothing of that name is there, say so and what was meant, rather than
 * "…/3000 is not a directory"; a directory of that name is served.
 */
export function refuseWordAfterHttp(parsed: ParsedArgs, command: string): void {
  const word = parsed.positionals[0];
  if (parsed.afterFlag?.option !== "http" || parsed.afterFlag.index !== 0 || word === undefined) {
    return;
  }
  if (existsSync(resolve(word))) return;
  throw new UsageError(
    `--http takes no value, so '${word}' was read as the directory, and there is none of that name; ${httpWordHint(word)}`,
    command,
  );
}
