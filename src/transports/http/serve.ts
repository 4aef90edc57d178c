import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "../../server/index.js";
import type { HttpListenOptions } from "../../settings/http-listen-options.js";
import { resolveListenerLimits } from "../../settings/listener-limits.js";
import { awaitShutdownSignal, endBySignal } from "../shutdown-signals.js";
import {
  checkExposure,
  connectableHost,
  defaultAllowedHosts,
  isAuthenticated,
  listenError,
} from "./binding.js";
import { continueWhenRead } from "./body.js";
import { createHttpHandler, type HttpStats } from "./handler.js";
import { capConnections, nodeServerOptions } from "./listener-limits.js";

export interface HttpServeOptions extends HttpListenOptions {
  /**
   * On SIGINT or SIGTERM the process is ending, so close everything, in
   * order: the door and the listener (`close()`: each request answered), then
   * the server (`server.close()`: each task still running left failed, a
   * Redis replica's lease given up); then let the signal take its course.
   */
  handleSignals?: boolean;
}

export interface HttpServing {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** What the open sessions hold (see HttpHandler.stats). */
  stats(): HttpStats;
  /**
   * Ends every session and stops listening. The server is left open, as it
   * may serve elsewhere too: close it with `server.close()` when done.
   */
  close(): Promise<void>;
}

/** How long responses still in flight get to finish when closing. */
const CLOSE_GRACE_MS = 2000;

/** Counts responses not yet sent in full, so closing can wait for them and no longer. */
class OpenResponses {
  private count = 0;
  private onDrained: (() => void) | undefined;

  add(res: ServerResponse): void {
    this.count++;
    res.once("close", () => {
      if (--this.count === 0) this.onDrained?.();
    });
  }

  drained(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.onDrained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Serves `server` over Streamable HTTP on its own node:http listener. */
export async function serveHttp(
  server: McpServer,
  options: HttpServeOptions = {},
): Promise<HttpServing> {
  const {
    host = "127.0.0.1",
    port = 3000,
    handleSignals = false,
    allowUnauthenticatedRemote = false,
    headersTimeoutMs,
    requestTimeoutMs,
    maxConnections,
    ...handlerOptions
  } = options;
  // node reads an empty host as "every interface": never expose the server by accident.
  if (host.trim() === "") {
    throw new TypeError(
      "host must not be empty; leave it unset to bind 127.0.0.1 (this machine only)",
    );
  }
  const limits = resolveListenerLimits({
    headersTimeoutMs,
    requestTimeoutMs,
    maxConnections,
    maxSessions: handlerOptions.maxSessions,
  });
  checkExposure(host, isAuthenticated(handlerOptions), allowUnauthenticatedRemote);
  const allowedHosts =
    handlerOptions.allowedHosts ?? defaultAllowedHosts(host, (message) => server.warn(message));
  const handler = createHttpHandler(server, { ...handlerOptions, allowedHosts });
  // An issuer out of reach is a clear error now rather than a 503 on every request.
  await handler.ready().catch(async (error: unknown) => {
    await handler.close();
    throw error;
  });
  const responses = new OpenResponses();
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    responses.add(res);
    handler.handle(req, res);
  };
  const listener = createHttpServer(nodeServerOptions(limits), serve);
  // Left alone, node:http says 100 Continue before the door has seen a header.
  listener.on("checkContinue", (req, res) => {
    continueWhenRead(req, res);
    serve(req, res);
  });
  capConnections(listener, limits.maxConnections, (message) => server.warn(message));

  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      void handler.close();
      reject(listenError(error, host, port));
    };
    listener.once("error", fail);
    listener.listen(port, host, () => {
      listener.off("error", fail);
      resolve();
    });
  });
  const address = listener.address() as AddressInfo;
  const url = `http://${connectableHost(host)}:${address.port}${handlerOptions.path ?? "/mcp"}`;

  const signals = handleSignals ? awaitShutdownSignal() : undefined;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      signals?.stop();
      const stopped = new Promise<void>((resolve) => listener.close(() => resolve()));
      await handler.close();
      await responses.drained(CLOSE_GRACE_MS);
      // Every response has gone out: what is left is idle, or never sent a request.
      listener.closeAllConnections();
      await stopped;
    })();
    return closing;
  };
  void signals?.signal.then(async (signal) => {
    await close();
    await server.close();
    endBySignal(signal);
  });

  return { url, host, port: address.port, stats: () => handler.stats(), close };
}
