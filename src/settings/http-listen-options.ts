import type { HttpHandlerOptions } from "./http-options.js";
import type { ListenerLimitOptions } from "./listener-limits.js";

/** What `serveHttp` listens with, and what a config file's `http` may set. */
export interface HttpListenOptions extends HttpHandlerOptions, ListenerLimitOptions {
  /** Interface to bind. Default 127.0.0.1: only this machine can connect. */
  host?: string;
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /**
   * Serve a non-loopback host without authToken. Without it, binding beyond
   * this machine with no token is refused: anyone who can reach the port could
   * call every tool.
   */
  allowUnauthenticatedRemote?: boolean;
}
