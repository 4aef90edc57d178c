import type { McpServer } from "../server/index.js";
import { createFetchHandler, type FetchHandler } from "../transports/fetch/handler.js";
import {
  checkExposure,
  connectableHost,
  defaultAllowedHosts,
  isAuthenticated,
  listenError,
} from "../transports/http/binding.js";
import type { HttpServeOptions } from "../transports/http/serve.js";
import { awaitShutdownSignal, endBySignal } from "../transports/shutdown-signals.js";

type Fetch = (request: Request) => Promise<Response>;

/** A listener a runtime started: the port it took, and how to stop it. */
interface Listening {
  readonly port: number;
  stop(): Promise<void>;
}

interface BunServer {
  /** Sets the idle timeout of the connection `request` came on; 0 lifts it. */
  timeout(request: Request, seconds: number): void;
}

interface BunRuntime {
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout: number;
    fetch(request: Request, server: BunServer): Promise<Response>;
  }): {
    port: number;
    stop(closeActiveConnections?: boolean): Promise<void> | void;
  };
}

interface DenoServeRuntime {
  serve(
    options: { port: number; hostname: string; onListen(addr: { port: number }): void },
    handler: Fetch,
  ): { shutdown(): Promise<void> };
}

/** Bun closes a connection silent for this long, in seconds (its default): idle keep-alive ones. */
const BUN_IDLE_SECONDS = 10;

/**
 * Bun's idle timeout also runs while a request is answered: a call longer
 * than 10 s, or an event stream quiet for that long, would be cut. It is
 * lifted from a request's arrival until its answer is sent (an event stream:
 * until it ends), since node:http limits no answer either.
 */
function withoutIdleLimitWhileAnswering(fetch: Fetch) {
  return async (request: Request, bun: BunServer): Promise<Response> => {
    bun.timeout(request, 0);
    const response = await fetch(request);
    const restore = () => bun.timeout(request, BUN_IDLE_SECONDS);
    if (response.body === null || response.headers.get("content-type") !== "text/event-stream") {
      restore();
      return response;
    }
    const body = response.body.pipeThrough(new TransformStream({ flush: restore }));
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/** How Bun or Deno listens with a fetch handler; undefined on Node, which uses node:http. */
export function nativeListener():
  | ((port: number, host: string, fetch: Fetch) => Promise<Listening>)
  | undefined {
  const runtime = globalThis as { Bun?: BunRuntime; Deno?: DenoServeRuntime };
  const { Bun, Deno } = runtime;
  if (Bun) {
    return async (port, hostname, fetch) => {
      const server = Bun.serve({
        port,
        hostname,
        idleTimeout: BUN_IDLE_SECONDS,
        fetch: withoutIdleLimitWhileAnswering(fetch),
      });
      return { port: server.port, stop: async () => void (await server.stop(true)) };
    };
  }
  if (Deno) {
    return (port, hostname, fetch) =>
      new Promise((resolve) => {
        // Deno calls onListen from inside serve(), before serve() returns the server.
        let server: { shutdown(): Promise<void> } | undefined;
        const stop = async () => server?.shutdown();
        server = Deno.serve(
          { port, hostname, onListen: (addr) => resolve({ port: addr.port, stop }) },
          fetch,
        );
      });
  }
  return undefined;
}

/**
 * `serveHttp` for Bun and Deno: their own listener with the one HTTP door
 * (sessions kept: the process lives on), the same refusal of an open
 * non-loopback bind, the same default allowed hosts, and the same graceful
 * close on SIGINT/SIGTERM. Resolves to the endpoint URL.
 */
export async function serveNative(
  server: McpServer,
  options: HttpServeOptions,
  listen: (port: number, host: string, fetch: Fetch) => Promise<Listening>,
): Promise<string> {
  const {
    host = "127.0.0.1",
    port = 3000,
    allowUnauthenticatedRemote = false,
    handleSignals: _,
    ...handlerOptions
  } = options;
  checkExposure(host, isAuthenticated(handlerOptions), allowUnauthenticatedRemote);
  const allowedHosts =
    handlerOptions.allowedHosts ?? defaultAllowedHosts(host, (message) => server.warn(message));
  const handler: FetchHandler = createFetchHandler(server, {
    ...handlerOptions,
    allowedHosts,
    sessions: true,
  });
  await handler.ready();
  let listening: Listening;
  try {
    listening = await listen(port, host, handler);
  } catch (error) {
    throw listenError(error, host, port);
  }
  // As serveHttp: closed, then ended by the signal itself, which a supervisor reads as a clean stop.
  void awaitShutdownSignal().signal.then(async (signal) => {
    await handler.close();
    await server.close();
    await listening.stop();
    endBySignal(signal);
  });
  return `http://${connectableHost(host)}:${listening.port}${handlerOptions.path ?? "/mcp"}`;
}
