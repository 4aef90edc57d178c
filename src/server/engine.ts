import type { Implementation, LoggingLevel, ServerCapabilities } from "../protocol/types.js";
import type { Registry } from "../registry/registry.js";
import type { ChangeBus } from "./change-bus.js";
import type { InputRoundLimits } from "./input-rounds/input-round.js";
import type { ListCache } from "./list-cache.js";
import type { MemoryBudget } from "./memory-budget.js";
import type { LogMessage } from "./notices.js";
import type { CacheHints } from "./stateless/result.js";
import type { TaskService } from "./tasks/tasks.js";

/** What the method handlers may use of the server. */
export interface Engine {
  readonly registry: Registry;
  readonly bus: ChangeBus;
  readonly lists: ListCache;
  readonly pageSize: number;
  readonly defaultLogLevel: LoggingLevel;
  readonly instructions: string | undefined;
  /** Resource URIs one session or listen stream may subscribe to. */
  readonly maxSubscriptions: number;
  /** What all clients together may make the server keep between their requests. */
  readonly memory: MemoryBudget;
  /** Tool calls run as tasks: where they are kept and how long. */
  readonly tasks: TaskService;
  /** How 2026-07-28 requests ask for input: the requestState signer and the round cap. */
  readonly inputRounds: InputRoundLimits;
  /** How long (ms) one run of a handler may take unless its definition says; 0: no limit. */
  readonly callTimeoutMs: number;
  /** The largest result, in bytes of JSON, a request may send; 0: no limit. */
  readonly maxResultBytes: number;
  /**
   * Calls `callback` when the server shuts down (long-lived requests end
   * gracefully); returns what stops waiting. See Closing for why not a signal.
   */
  atClose(callback: () => void): () => void;
  serverInfo(): Implementation;
  /**
   * The 2026-07-28 caching hints for a kind of result; `varies` when it
   * depends on who asks (a list the caller's scopes or its views decide).
   */
  cacheHints(kind: "list" | "discover" | "read", varies?: boolean): CacheHints;
  /** What this server offers a client of that protocol revision. */
  capabilities(version: string): ServerCapabilities;
  /** Tells the subscribers of `uri`, in every session and listen stream, that it changed. */
  resourceUpdated(uri: string): void;
  /** What stands on the server for every client to hear (see McpServer.setNotice). */
  notices(): readonly LogMessage[];
  /** A line for the developer on stderr. */
  warn(message: string): void;
}
