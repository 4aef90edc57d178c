import type { HttpHandlerOptions } from "../settings/http-options.js";
import { createFetchHandler, type FetchHandler } from "../transports/fetch/handler.js";
import {
  checkExposure,
  connectableHost,
  defaultAllowedHosts,
  isAuthenticated,
  isLoopback,
} from "../transports/http/binding.js";
import { refusalBody, TRANSPORT_ERROR } from "../transports/http/responses.js";
import { type BuildTarget, type Bundle, createBundledServer } from "./runtime.js";
import {
  ALLOW_OPEN_ENV,
  type BundleSettings,
  bindingsEnvironment,
  deno,
  processEnvironment,
  readSettings,
  SETTING_VARIABLES,
} from "./settings.js";

type Fetch = (request: Request, env?: unknown) => Promise<Response>;

/** What a bundle exports for runtimes that serve a module: its `fetch`, and `default`. */
export interface BundleExports {
  readonly fetch: Fetch;
  readonly default: { fetch: Fetch; onListen?: (addr: { hostname: string; port: number }) => void };
  /**
   * Whether a runtime serves `default` (`deno serve` calls its `onListen`
   * when it listens, before the task after the module's first runs), so the
   * module, although the main one, must not also run as a program.
   */
  servedAsModule(): boolean;
}

const OPEN_WORKER = `Service Unavailable: this Worker would serve every tool to anyone who can reach it. Set MCP_DIR_AUTH_TOKEN (npx wrangler secret put MCP_DIR_AUTH_TOKEN) to require a bearer token, or MCP_DIR_AUTH_ISSUER and MCP_DIR_AUTH_AUDIENCE under [vars] to accept OAuth access tokens, or set ${ALLOW_OPEN_ENV} = "1" under [vars] in wrangler.toml if it is meant to be open`;

/** Every request answered with one error: a server that must not serve as configured. */
function refusing(message: string): FetchHandler {
  const body = refusalBody(TRANSPORT_ERROR, message);
  const respond = () =>
    Promise.resolve(
      new Response(body, { status: 503, headers: { "content-type": "application/json" } }),
    );
  return Object.assign(respond, { close: () => Promise.resolve(), ready: () => Promise.resolve() });
}

/** The handler's options: the build's config, with what the environment sets over it. */
function optionsFor(
  bundle: Bundle,
  settings: BundleSettings,
  allowedHosts: readonly string[] | undefined,
): HttpHandlerOptions {
  const http = bundle.config.http as HttpHandlerOptions | undefined;
  const options: HttpHandlerOptions = { ...http };
  if (settings.authToken !== undefined) options.authToken = settings.authToken;
  if (settings.auth !== undefined) options.auth = { ...http?.auth, ...settings.auth };
  const hosts = http?.allowedHosts ?? allowedHosts;
  if (hosts !== undefined) options.allowedHosts = hosts;
  return options;
}

function handlerFor(bundle: Bundle, settings: BundleSettings, options: HttpHandlerOptions) {
  return createFetchHandler(createBundledServer(bundle, settings.stateKey), options);
}

const NEEDED = SETTING_VARIABLES.filter((name) => name !== "PORT");

/**
 * A Worker's `fetch(request, env)`: settings from its `env` bindings, read
 * at its first request (an isolate keeps them). A Worker is reachable by
 * anyone, under any name: any Host is accepted (the Origin check stays),
 * and without a token it serves nothing unless told it is meant to be open.
 */
function workerExports(bundle: Bundle): BundleExports {
  let handler: FetchHandler | undefined;
  const fetch: Fetch = (request, env) => {
    if (!handler) {
      try {
        const settings = readSettings(bindingsEnvironment(env));
        const options = optionsFor(bundle, settings, ["*"]);
        handler =
          !isAuthenticated(options) && !settings.allowUnauthenticatedRemote
            ? refusing(OPEN_WORKER)
            : handlerFor(bundle, settings, options);
      } catch (error) {
        handler = refusing(`Service Unavailable: ${(error as Error).message}`);
      }
    }
    return handler(request);
  };
  return { fetch, default: { fetch }, servedAsModule: () => true };
}

/**
 * The `fetch` of a bundle run under `deno serve`, or imported by code that
 * serves it itself: settings from the process's environment. It does not know
 * where it is served, so only loopback Host names reach it unless the config
 * lists more; `deno serve` tells it (`onListen`), and it then refuses an open
 * non-loopback bind and accepts the names of its bind, as `serve` does.
 */
function processExports(bundle: Bundle, target: BuildTarget): BundleExports {
  let handler: FetchHandler | undefined;
  const start = (host: string | undefined) => {
    const settings = readSettings(processEnvironment(NEEDED));
    const hosts =
      host === undefined ? undefined : defaultAllowedHosts(host, (line) => console.error(line));
    const options = optionsFor(bundle, settings, hosts);
    if (host !== undefined && !isLoopback(host)) {
      checkExposure(host, isAuthenticated(options), settings.allowUnauthenticatedRemote);
    }
    return handlerFor(bundle, settings, options);
  };
  const fetch: Fetch = (request) => {
    handler ??= start(undefined);
    return handler(request);
  };
  let listened = false;
  const onListen = (addr: { hostname: string; port: number }) => {
    listened = true;
    try {
      handler = start(addr.hostname);
    } catch (error) {
      console.error(`mcp-dir: ${(error as Error).message}`);
      deno()?.exit(1);
      throw error;
    }
    const { name, version } = bundle.config;
    const path = bundle.config.http?.path ?? "/mcp";
    console.error(
      `mcp-dir: serving ${name} ${version} (built) at http://${connectableHost(addr.hostname)}:${addr.port}${path}`,
    );
  };
  return {
    fetch,
    default: target === "deno" ? { fetch, onListen } : { fetch },
    servedAsModule: () => listened,
  };
}

/** The `fetch` and `default` exports of a bundle built for `target`. */
export function bundleExports(bundle: Bundle, target: BuildTarget): BundleExports {
  return target === "cloudflare" ? workerExports(bundle) : processExports(bundle, target);
}
