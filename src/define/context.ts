import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitAction,
  Implementation,
  LoggingLevel,
  Root,
} from "../protocol/types.js";
import type { AuthInfo } from "./auth.js";
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

/**
 * Sends the user to a page (URL mode): for a third-party sign-in, a payment or
 * a secret that must not pass through the client or the model. The URL must
 * be absolute `https:` (`http:` only on loopback), name its host, and must not
 * carry credentials, control or bidirectional formatting characters, or the
 * user's secrets; the client gets it normalised (the parsed URL's href).
 */
export interface ElicitUrlRequest {
  message: string;
  url: string;
  /**
   * Identifies the interaction, e.g. your own pending record; sent to 2025
   * clients, which are told when you call `complete()`. Default: a random UUID.
   */
  elicitationId?: string;
  schema?: never;
}

/** The user's answer to a URL: "accept" means they agreed to open it, not that they finished. */
export interface ElicitUrlOutcome {
  action: ElicitAction;
  elicitationId: string;
  /**
   * Tells the client that the interaction finished
   * (`notifications/elicitation/complete`, 2025-11-25 sessions). Call it when
   * your callback has what it waited for; on 2026-07-28 it does nothing (the
   * client retries the request, and your handler checks your own records).
   */
  complete(): void;
}

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
 * It tells a run what the rounds before its state did; a client may present
 * an earlier state again, so a side effect that must happen once needs a
 * record of your own (keyed, say, on an id put here before the first ask).
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
   * The caller as its access token names them (subject, client id, scopes,
   * claims), in both eras, on HTTP with OAuth; undefined on stdio, without
   * auth, and with the static token, which names no one.
   */
  readonly auth: AuthInfo | undefined;
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
   * once per round (make side effects idempotent, or do them after the asks).
   */
  elicit<S extends SchemaInput>(
    request: ElicitRequest<S>,
    options?: AskOptions,
  ): Promise<ElicitOutcome<InferShape<S>>>;
  /** Sends the user to a page; the client must have declared `elicitation.url`. */
  elicit(request: ElicitUrlRequest, options?: AskOptions): Promise<ElicitUrlOutcome>;
  /**
   * An error to throw when the request cannot go on until the user has visited
   * the page(s): -32042 (URL elicitation required) on 2025-11-25; on 2026-07-28,
   * an input_required round asking to open them, after which the handler runs
   * again (check your own records to see whether the user finished).
   */
  urlElicitationRequired(...requests: ElicitUrlRequest[]): Error;
  /** Asks the client's model for a completion; rounds as `elicit`. */
  sample(request: CreateMessageParams | string, options?: AskOptions): Promise<CreateMessageResult>;
  /** The client's roots; rounds as `elicit`. */
  roots(options?: AskOptions): Promise<Root[]>;
  /**
   * Tells the subscribers of `uri` that it changed (resources/updated, on 2025
   * sessions and 2026 listen streams): for a tool that changes a resource.
   */
  resourceUpdated(uri: string): void;
  /** Carried from one run to the next while a 2026-07-28 request asks for input. */
  readonly roundState: RoundState;
  /**
   * This request's own values, shared by the middleware around the handler
   * and the handler: a middleware puts the caller's account here, the
   * handler reads it. A fresh object for every request.
   */
  readonly locals: Record<string, unknown>;
}
