import type { Implementation, LoggingLevel, ServerCapabilities } from "../protocol/types.js";
import type { Registry } from "../registry/registry.js";
import type { ChangeBus } from "./change-bus.js";
import type { ListCache } from "./list-cache.js";

/** What the method handlers may use of the server. */
export interface Engine {
  readonly registry: Registry;
  readonly bus: ChangeBus;
  readonly lists: ListCache;
  readonly pageSize: number;
  readonly defaultLogLevel: LoggingLevel;
  readonly instructions: string | undefined;
  serverInfo(): Implementation;
  /** What this server offers a client of that protocol revision. */
  capabilities(version: string): ServerCapabilities;
  /** A line for the developer on stderr. */
  warn(message: string): void;
}
