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

/** How one `ctx.elicit`, `ctx.sample` or `ctx.roots` call is told apart from the others. */
export interface AskOptions {
  /**
   * Its key in a 2026-07-28 `input_required` result. Default: the kind and
   * the call's place in the run (`elicitation-1`, `sampling-2`, ...). Give one
   * when the asks a handler makes depend on earlier answers.
   */
  key?: string;
}

/**
 * The handler's own data across the runs of one 2026-07-28 request that
 * asks for input (JSON values only: it travels signed inside `requestState`).
 * On the 2025 revisions there is one run, and this is a fresh object.
 */
export type RoundState = Record<string, unknown>;

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
  /**
   * Asks the user through the client. On 2026-07-28 a call not yet answered
   * ends this run with an `input_required` result, and the handler runs again,
   * from the start, with the answer: code before the last answered call runs
   * once per round (guard side effects with `roundState`).
   */
  elicit<S extends SchemaInput>(
    request: ElicitRequest<S>,
    options?: AskOptions,
  ): Promise<ElicitOutcome<InferShape<S>>>;
  /** Asks the client's model for a completion; rounds as `elicit`. */
  sample(request: CreateMessageParams | string, options?: AskOptions): Promise<CreateMessageResult>;
  /** The client's roots; rounds as `elicit`. */
  roots(options?: AskOptions): Promise<Root[]>;
  /** Carried from one run to the next while a 2026-07-28 request asks for input. */
  readonly roundState: RoundState;
}
