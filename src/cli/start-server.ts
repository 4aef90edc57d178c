import type { HttpServeOptions, HttpServing, McpServer } from "../index.js";
import { payOwedWrites } from "../loader/owed-writes.js";
import { STATE_KEY_ENV } from "../server/input-rounds/request-state.js";
import {
  awaitShutdownSignal,
  endBySignal,
  type ShutdownSignal,
} from "../transports/shutdown-signals.js";
import { countSummary, loadQuietly, reportLoad } from "./load-report.js";
import { traceIfOpenTelemetryIsSetUp } from "./open-telemetry.js";
import { type HttpFlags, withFlags } from "./serve-options.js";
import { commandStdio, commandStop, printError } from "./stdout.js";
import { survivesStrayErrors } from "./stray-errors.js";

export interface StartOptions {
  /** Serve Streamable HTTP with these options; stdio when absent. */
  http?: HttpFlags;
  /** Watch the directory and reload every saved file in place; `ui`: serve the dev page too. */
  dev?: { verbose: boolean; ui?: { port: number } };
  /** How long one file may take to load (default 5000 ms). */
  loadTimeoutMs?: number;
}

/**
 * Loads `dir` and serves it: over stdio until the client closes stdin, or
 * until SIGINT/SIGTERM. Either way the server is closed, its doors first (so
 * its tasks still running are left failed and a Redis replica gives up its
 * lease); a signal then ends the process itself. Returns the exit code: 1
 * when the directory has problems (each printed on stderr; `dev` serves what
 * loaded and keeps going).
 */
export async function startServer(dir: string, options: StartOptions = {}): Promise<number> {
  // In dev, folders created later must reach clients that are already connected.
  const overrides = options.dev
    ? { announce: ["tools", "prompts", "resources", "views", "tasks"] as const }
    : {};
  const loaded = await loadQuietly(
    dir,
    overrides,
    options.loadTimeoutMs === undefined ? {} : { loadTimeoutMs: options.loadTimeoutMs },
    { replicas: true },
  );
  const servable = options.dev
    ? await reportLoad(loaded, dir, printError, "mcp-dir dev", "save: the rest is served meanwhile")
    : await reportLoad(loaded, dir, printError);
  if (!servable && !options.dev) return 1;
  const { server, load } = loaded;
  // The page's server is loaded only by dev --ui.
  const ui = options.dev?.ui
    ? await (await import("../dev-ui/index.js")).startDevUi(server, {
        port: options.dev.ui.port,
        dir,
        problems: loaded.problems,
      })
    : undefined;
  // The watcher (chokidar) is loaded only by dev: serve starts without it.
  const watcher = options.dev
    ? await (await import("./dev-watch.js")).startWatching(
        server,
        load.dir,
        options.dev.verbose,
        ui?.reloaded,
      )
    : undefined;
  if (ui) await printError(`mcp-dir dev: the dev UI is at ${ui.url}`);
  await traceIfOpenTelemetryIsSetUp();
  const stopSurviving = survivesStrayErrors(server);
  if (server.replicas) {
    const { link, options: redis } = server.replicas;
    await printError(
      `mcp-dir: replicas share tasks, resource updates and 2025 streams through Redis at ${link.where} (keys ${redis.prefix}*)`,
    );
  }
  const what = `${options.dev ? " dev" : ""}: serving ${load.config.name} ${load.config.version} from ${dir} (${countSummary(server)})`;
  // SIGINT/SIGTERM: close everything in order, then let the signal end the process.
  const signals = awaitShutdownSignal();
  // Or, run by a test in its own process, when the test stops it: no signal, the process goes on.
  const stopped = commandStop().then(() => undefined);
  let signal: ShutdownSignal | undefined;
  try {
    if (options.http) {
      const http = withFlags(load.config.http as HttpServeOptions | undefined, options.http);
      const serving = await serveOverHttp(server, what, http, options.dev !== undefined);
      signal = await Promise.race([signals.signal, stopped]);
      // The door first, so that each request in flight gets its answer.
      await serving.close();
    } else {
      await printError(`mcp-dir${what} over stdio; waiting for a client on stdin`);
      // Each transport loads only when it serves: stdio starts without the HTTP door.
      const { serveStdio } = await import("../transports/stdio.js");
      signal = await Promise.race([
        serveStdio(server, commandStdio()).then(() => undefined),
        signals.signal,
        stopped,
      ]);
    }
  } finally {
    signals.stop();
    stopSurviving();
    await watcher?.close();
    await ui?.close();
    await server.close();
  }
  if (signal) {
    // The signal runs no exit listener: what the loader's caches owe the disk is written first.
    payOwedWrites();
    endBySignal(signal);
    return new Promise<never>(() => {});
  }
  return 0;
}

async function serveOverHttp(
  server: McpServer,
  what: string,
  options: HttpServeOptions,
  dev: boolean,
): Promise<HttpServing> {
  const { serveHttp } = await import("../transports/http/index.js");
  const serving = await serveHttp(server, options);
  if (!dev && server.inputRounds.signer.ephemeral) {
    await printError(
      `mcp-dir: ${STATE_KEY_ENV} is not set, so requestState (2026-07-28 handlers that ask for input) is signed with a key of this process only; behind a load balancer, set it to one secret of 32+ characters on every replica`,
    );
  }
  await printError(`mcp-dir${what} at ${serving.url}`);
  return serving;
}
