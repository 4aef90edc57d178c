import type { ClientCapabilities, Implementation, LoggingLevel } from "../protocol/types.js";
import type { ProtocolVersion } from "../protocol/versions.js";
import type { Params, ServerNotification } from "./link.js";
import type { Responders } from "./responders.js";
import type { Progress } from "./results.js";
import type { TaskState } from "./task-follower.js";

export interface ClientOptions extends Responders {
  /**
   * The protocol revision: "2026-07-28" (the default, request by request) or
   * a 2025 revision (a session, initialized at it).
   */
  protocolVersion?: ProtocolVersion;
  /** Default `{ name: "mcp-dir-test-client", version: "1.0.0" }`. */
  clientInfo?: Implementation;
  /** Declared over what the responders imply (a responder declares its capability). */
  capabilities?: ClientCapabilities;
  /** The least severe log message to receive. Default "debug": every one. */
  logLevel?: LoggingLevel;
  /**
   * Called with every notification as it arrives (they are in `notifications`
   * too). What it throws stops nothing; `close()` rejects with the first.
   */
  onNotification?: (notification: ServerNotification) => void;
  /**
   * A tool that may run as a task runs as one (2026-07-28: the client
   * declares the tasks extension; 2025-11-25: `callTool` sends the `task`
   * param for a tool that lists task support); `callTool` follows it to its
   * end and resolves to its result (`request` gives the task as created).
   */
  tasks?: boolean;
}

export interface RequestOptions {
  /**
   * Aborting it cancels the request (a call run as a task: `tasks/cancel`):
   * the handler's `ctx.signal` aborts, and the call rejects with its reason.
   */
  signal?: AbortSignal;
  /** Gets what the handler reports with `ctx.progress` (the request carries a progress token). */
  onprogress?: (progress: Progress) => void;
  /** A call run as a task: each state of the task as it changes, to its end. */
  ontask?: (task: TaskState) => void;
}

/** A list request's params: a page's cursor (none: every page), and `_meta`. */
export type ListParams = {
  cursor?: string;
  _meta?: Params;
};
