import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServer } from "../../server/index.js";
import { type HttpHandlerOptions, resolveHttpOptions } from "../../settings/http-options.js";
import { readBody } from "./body.js";
import { HttpDoor } from "./door.js";
import type { BodySource } from "./exchange.js";
import type { HttpStats } from "./stats.js";

export type { HttpStats } from "./stats.js";

/** Streamable HTTP for one McpServer, for use inside any node:http server. */
export interface HttpHandler {
  /**
   * Answers the MCP endpoint, `/health` and the protected-resource metadata.
   * Any other path goes to `next` when given (Connect/Express style), else 404.
   */
  readonly handle: (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;
  /** Open HTTP sessions. */
  readonly sessionCount: number;
  /** What the open sessions hold: each figure returns to its floor when requests end. */
  stats(): HttpStats;
  /** Ends every HTTP session; the handler answers nothing afterwards but 503. */
  close(): Promise<void>;
  /**
   * With `auth.issuer`: resolves once the authorization server's metadata
   * and keys are read, rejects naming the URL when they cannot be (else they
   * are read at the first request, which gets 503 while they cannot be).
   */
  ready(): Promise<void>;
}

const NODE_BODY: BodySource<IncomingMessage> = {
  read: readBody,
  drop: (req, res) => res.once("finish", () => req.destroy()),
};

/** The one HTTP door on node:http: its request and response go in as they are. */
export function createHttpHandler(server: McpServer, options?: HttpHandlerOptions): HttpHandler {
  const door = new HttpDoor(server, resolveHttpOptions(options), NODE_BODY, "sessions");
  return {
    handle: (req, res, next) => door.handle(req, res, next),
    get sessionCount() {
      return door.sessionCount;
    },
    stats: () => door.stats(),
    close: () => door.close(),
    ready: () => door.ready(),
  };
}
