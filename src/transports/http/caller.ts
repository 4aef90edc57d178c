import type { AuthInfo } from "../../define/auth.js";
import { encodeMessage, type JsonRpcResponse } from "../../jsonrpc/index.js";
import { requiredScopesOf } from "../../server/index.js";
import type { ResponseHeaders, ResponseWriter } from "./exchange.js";
import { sendJson } from "./responses.js";

/** Who a request comes from, as the gate admitted it: the verified caller, and the 403 it may earn. */
export interface Caller {
  readonly auth: AuthInfo | undefined;
  /** The headers of a 403 for a call that needs `scopes`; undefined without OAuth. */
  readonly forbidden: ((scopes: readonly string[]) => ResponseHeaders) | undefined;
  /**
   * When the gate stops accepting the caller's token (epoch ms: its expiry
   * plus the clock tolerance), which ends the streams it holds open;
   * undefined when it does not expire.
   */
  readonly until: number | undefined;
}

/** A request with no caller to name (no auth, or the static token). */
export const ANONYMOUS: Caller = { auth: undefined, forbidden: undefined, until: undefined };

/**
 * A response answered whole: 200, or 403 with the challenge when the
 * caller's token lacks scopes the call needs, so a client can step up.
 */
export function sendResponse(res: ResponseWriter, response: JsonRpcResponse, caller: Caller): void {
  const scopes = caller.forbidden && requiredScopesOf(response);
  const headers = scopes && caller.forbidden?.(scopes);
  sendJson(res, headers ? 403 : 200, encodeMessage(response), headers);
}
