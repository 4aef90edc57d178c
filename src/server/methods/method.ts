import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import type { ServerCapabilities } from "../../protocol/types.js";
import type { Era, SessionState } from "../env.js";
import type { Params } from "../params.js";
import type { RequestContext } from "../request-context.js";

export type MethodHandler = (params: Params, rc: RequestContext) => unknown;

/** Everything the server knows of one request method: one entry, one place to add a method. */
export interface MethodDescriptor {
  /** The eras that answer it; to the others it does not exist. */
  readonly eras: readonly Era[];
  readonly handler: MethodHandler;
  /** 2026-07-28: the capability without which the method does not exist. */
  readonly capability?: keyof ServerCapabilities;
  /** 2026-07-28: may answer `input_required`, asking the client for input through its result. */
  readonly asksInput?: true;
  /** 2026-07-28 over HTTP: the params field its `Mcp-Name` header mirrors. */
  readonly names?: "name" | "uri" | "taskId";
  /** 2025: answered before `initialize`. */
  readonly beforeInitialize?: true;
  /** 2025: only a session can honour it, so an endpoint that keeps none refuses it. */
  readonly needsSession?: true;
}

export type MethodTable = Readonly<Record<string, MethodDescriptor>>;

export const BOTH_ERAS: readonly Era[] = ["stateful", "stateless"];
export const STATEFUL_ONLY: readonly Era[] = ["stateful"];
export const STATELESS_ONLY: readonly Era[] = ["stateless"];

/** What a middleware's throw becomes where a handler's throw is the request's error: itself. */
export function rethrow(error: unknown): never {
  throw error;
}

/** The session of a method that only the stateful era has (its table guarantees one). */
export function sessionOf(rc: RequestContext): SessionState {
  const { session } = rc.env;
  if (!session) throw new JsonRpcError(ErrorCode.InternalError, "This request has no session");
  return session;
}
