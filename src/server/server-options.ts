import type { Middleware, MiddlewareDefinition } from "../define/middleware.js";
import type { Implementation, JsonObject, LoggingLevel } from "../protocol/types.js";
import type { AnnouncedKind } from "./capabilities.js";
import type { ChangeBus } from "./change-bus.js";
import type { RedisOptions } from "./replicas/redis-options.js";
import type { TaskOptions } from "./tasks/tasks.js";

export interface ServerOptions extends Implementation {
  /** Sent to clients at initialize: how to use this server. */
  instructions?: string;
  /** Items per page of every list. Default 100. */
  pageSize?: number;
  /** Kinds (and views) to announce even while none is registered (so files added later are seen). */
  announce?: readonly AnnouncedKind[];
  /** The log level a session starts with, until the client sets one. Default "debug". */
  logLevel?: LoggingLevel;
  /** Where the server's own diagnostics go. Default: stderr. */
  warn?: (message: string) => void;
  /** Carries changes to clients; share one between replicas. Default: in-process, or Redis's with `redis`. */
  bus?: ChangeBus;
  /**
   * Redis, shared by the replicas of this server (a URL, or the URL with
   * settings): tasks, resource updates announced by code and the streams of
   * 2025 sessions then cross replicas. Default: none, everything in this
   * process. `bus` and `tasks.store`, when given, win over it.
   */
  redis?: string | RedisOptions;
  /**
   * How long (ms) a 2026-07-28 client may keep a list or `server/discover`
   * result without asking again. Default 0: always ask, so a change is seen at
   * once (what `dev` needs). Listen streams tell clients of changes either way.
   */
  cacheTtlMs?: number;
  /** Resource URIs one session or listen stream may subscribe to. Default 1000. */
  maxSubscriptions?: number;
  /**
   * What all clients together may make the server keep between their
   * requests, in bytes: 2025 sessions (what initialize told, resource
   * subscriptions) and 2026-07-28 listen streams (the request each keeps
   * open). A request past it is refused with an error naming it. 0 for no
   * limit. Default: a quarter of the JavaScript heap the process runs with
   * (`--max-old-space-size`), or 32 MiB where the runtime does not tell it.
   */
  memoryBudgetBytes?: number;
  /**
   * Extensions this server supports, advertised in its capabilities:
   * identifier (`com.example/name`) → settings (`{}` for none). MCP Apps
   * (`io.modelcontextprotocol/ui`) is added whenever the server has a view.
   */
  extensions?: Record<string, JsonObject>;
  /** How 2026-07-28 requests ask their client for input (`ctx.elicit`, `ctx.sample`, `ctx.roots`). */
  inputRounds?: InputRoundOptions;
  /**
   * Tool calls run as tasks (tools defined with `task: "optional"` or
   * `"required"`): how long each is kept, how often clients poll, how many
   * are kept at once, and where.
   */
  tasks?: TaskOptions;
  /**
   * How long (ms) one run of a tool, prompt or resource handler may take
   * unless its definition sets `timeoutMs`; 0 for no limit. Default 5 minutes.
   */
  callTimeoutMs?: number;
  /**
   * The largest result (bytes of JSON) a request may send; a larger one is
   * not sent, and its caller is told why. 0 for no limit. Default 16 MiB.
   */
  maxResultBytes?: number;
  /**
   * Middleware around every tool, prompt and resource, before any folder's
   * `_middleware.ts`: functions `(ctx, next) => ...`, or defineMiddleware's.
   */
  middleware?: readonly (Middleware | MiddlewareDefinition)[];
}

export interface InputRoundOptions {
  /**
   * Signs every `requestState` (32 bytes or more). Default: the
   * MCP_DIR_STATE_KEY environment variable, else a random key for this
   * process, which replicas behind one endpoint would not share.
   */
  key?: string | Uint8Array;
  /** How long (ms) a client may take to come back with its answers. Default 15 minutes. */
  ttlMs?: number;
  /** `input_required` results one request may have: 1 or more. Default 10. */
  maxRounds?: number;
}
