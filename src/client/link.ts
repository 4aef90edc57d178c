import type { JsonRpcResponse } from "../jsonrpc/index.js";
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ServerCapabilities,
} from "../protocol/types.js";
import { RequestError } from "./errors.js";
import type { Answers } from "./responders.js";

export type Params = Record<string, unknown>;

/** A notification from the server, as it arrived. */
export interface ServerNotification {
  readonly method: string;
  readonly params: Params;
}

/** What the server said of itself when the client connected. */
export interface ServerIdentity {
  readonly protocolVersion: string;
  readonly capabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
}

export interface LinkOptions {
  readonly clientInfo: Implementation;
  readonly capabilities: ClientCapabilities;
  readonly answers: Answers;
  /** 2026-07-28: the log level every request asks for (2025: the session's, set by the client). */
  readonly logLevel: LoggingLevel | undefined;
  onNotification(notification: ServerNotification): void;
}

/** One era's way of carrying a client's requests to a server in this process. */
export interface Link {
  readonly server: ServerIdentity;
  /** The result as the server sent it; a JSON-RPC error rejects with a RequestError. */
  request(method: string, params: Params, signal?: AbortSignal): Promise<Params>;
  close(): Promise<void>;
}

/** The error of a request still running when the client closed. */
export const CLOSED_BEFORE_ANSWER = "The client closed before the server answered";

/** The error of a request made once the client was closed. */
export const CLOSED_BEFORE_SENT =
  "This client is closed (close() was called), so the request was not sent; make a new client for it";

/** A response's result, or its error thrown as a RequestError. */
export function resultOf(response: JsonRpcResponse): Params {
  if ("error" in response) {
    const { code, message, data } = response.error;
    throw new RequestError(code, message, data);
  }
  return (response.result ?? {}) as Params;
}

/** The error a request gets when the client closed or its caller aborted it. */
export function abortReason(signal: AbortSignal | undefined, fallback: string): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error(fallback);
}
