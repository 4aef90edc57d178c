import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import type { SessionState } from "../env.js";
import type { Params } from "../params.js";
import type { RequestContext } from "../request-context.js";

export type MethodHandler = (params: Params, rc: RequestContext) => unknown;
export type MethodTable = Readonly<Record<string, MethodHandler>>;

/** The session of a method that only the stateful era has (its table guarantees one). */
export function sessionOf(rc: RequestContext): SessionState {
  const { session } = rc.env;
  if (!session) throw new JsonRpcError(ErrorCode.InternalError, "This request has no session");
  return session;
}
