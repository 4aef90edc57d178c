import type { AuthInfo } from "../define/auth.js";
import type { SessionInfo } from "../define/context.js";
import type { JsonRpcId } from "../jsonrpc/index.js";
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ProtocolVersion,
} from "../protocol/index.js";
import type { Network, RequestTrace } from "../tracing/channels.js";
import type { InFlight } from "./in-flight.js";
import type { InputRound } from "./input-rounds/input-round.js";
import type { Params } from "./params.js";

/** 2025 revisions keep a session per connection; 2026-07-28 carries everything per request. */
export type Era = "stateful" | "stateless";

/** How one request reaches its client: messages that travel with that request. */
export interface ClientChannel {
  /** A notification related to the request (progress, log). */
  notify(method: string, params: Params): void;
  /**
   * A request to the client (elicitation, sampling, roots). A 2025 session
   * sends one; a 2026 request asks through its result instead, and a task
   * through its own state. `key` is the author's name for the ask, if any.
   */
  request?(method: string, params: Params, signal: AbortSignal, key?: string): Promise<unknown>;
  /** How the request and its messages travel, as traces name it. */
  readonly network?: Network;
}

/** What a 2025 session lends the requests it carries. */
export interface SessionState extends SessionInfo {
  readonly initialized: boolean;
  /** True once the connection is gone: nothing more reaches its client. */
  readonly ended: boolean;
  /** A notification to the session's client, tied to no request. */
  notify(method: string, params: Params): void;
  logLevel: LoggingLevel;
  readonly subscriptions: Set<string>;
  /** Keeps `bytes` more for as long as the session lasts, within the server's memory budget (throws past it). */
  hold(bytes: number, method: string): void;
  /** Gives back `bytes` the session held and no longer keeps. */
  release(bytes: number): void;
  initialize(
    version: ProtocolVersion,
    capabilities: ClientCapabilities,
    info: Implementation | undefined,
  ): void;
}

/**
 * Everything a request is served with besides its params: the protocol
 * revision and client it came from, how to reach that client, and a session
 * only when there is one. A 2025 session and a 2026 stateless request each
 * build one and hand it to `dispatch`.
 */
export interface RequestEnv {
  readonly era: Era;
  readonly requestId: JsonRpcId;
  readonly protocolVersion: string;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly progressToken: string | number | undefined;
  readonly inFlight: InFlight;
  readonly channel: ClientChannel;
  /** Whether a log message at `level` may be sent for this request. */
  wantsLog(level: LoggingLevel): boolean;
  readonly session?: SessionState;
  /** Aborted when whatever carries the request shuts down: long-lived requests end gracefully. */
  readonly closing?: AbortSignal;
  /** A 2026-07-28 request that may ask its client for input through its result. */
  readonly inputRound?: InputRound;
  /** What is published of this request while something traces it: dispatch adds what it returned. */
  readonly trace?: RequestTrace;
  /** The caller its transport verified (HTTP with OAuth); scopes are checked against it. */
  readonly auth?: AuthInfo;
  /**
   * Who made the request, when the transport verified it (`callerKey` of
   * `auth`): opaque, compared for equality only. Tasks are
   * bound to it; without one, to the 2025 session, else to nobody.
   */
  readonly principal?: string;
}
