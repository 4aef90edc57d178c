import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitAction,
  Implementation,
  LoggingLevel,
  Root,
} from "../protocol/types.js";
import type { InferShape, SchemaInput } from "./schema.js";

export type LogMethod = (data: unknown, logger?: string) => void;
export type HandlerLogger = { [L in LoggingLevel]: LogMethod };

/** Who is asking: known on every request, in both protocol eras. */
export interface ClientInfo {
  /** The client's name and version, when it gave them. */
  readonly info: Implementation | undefined;
  /** What the client can do (elicitation, sampling, roots, ...) for this request. */
  readonly capabilities: ClientCapabilities;
}

/** A 2025 connection's own state: there is none on a 2026-07-28 request. */
export interface SessionInfo {
  /** Stable for the life of a connection (stdio) or an HTTP session. */
  readonly id: string;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  /** The author's own per-session data. */
  readonly state: Map<string, unknown>;
}

export interface ElicitRequest<S extends SchemaInput> {
  message: string;
  /** A flat object of primitives: a zod shape, a `z.object`, or a JSON Schema object. */
  schema: S;
}

export type ElicitOutcome<T> =
  | { action: "accept"; content: T }
  | { action: Exclude<ElicitAction, "accept">; content?: undefined };

/** What every handler receives as its second argument. */
export interface HandlerContext {
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  readonly protocolVersion: string;
  /** Who is asking, on every request. */
  readonly client: ClientInfo;
  /**
   * The connection's session on the 2025 revisions; undefined on 2026-07-28,
   * which has none (keep cross-call state in your own store, keyed by an id
   * your tools hand out).
   */
  readonly session: SessionInfo | undefined;
  readonly log: HandlerLogger;
  /** Reports progress when the client asked for it; values must increase. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  elicit<S extends SchemaInput>(request: ElicitRequest<S>): Promise<ElicitOutcome<InferShape<S>>>;
  sample(request: CreateMessageParams | string): Promise<CreateMessageResult>;
  roots(): Promise<Root[]>;
}
