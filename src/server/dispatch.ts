import { thrownDetail, thrownMessage } from "../define/thrown.js";
import {
  ErrorCode,
  failure,
  isJsonRpcError,
  type JsonRpcRequest,
  type JsonRpcResponse,
  RawJson,
  success,
} from "../jsonrpc/index.js";
import type { Engine } from "./engine.js";
import type { RequestEnv } from "./env.js";
import { methodsFor } from "./methods/index.js";
import type { Params } from "./params.js";
import { RequestContext } from "./request-context.js";
import { cannotEncode, sizeOver, tooLarge } from "./result-size.js";
import { encodeCompleteResult } from "./stateless/result.js";

/**
 * Serves one request in its env: finds the method in the table of the
 * request's era, runs it, and maps what it returned or threw to a response.
 * Resolves to undefined when the request was cancelled: nothing is sent for it.
 */
export async function dispatch(
  engine: Engine,
  request: JsonRpcRequest,
  env: RequestEnv,
): Promise<JsonRpcResponse | undefined> {
  const { id, method } = request;
  const handler = methodsFor(env.era).get(method)?.handler;
  if (!handler) return failure(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
  if (Array.isArray(request.params)) {
    return failure(id, ErrorCode.InvalidParams, `${method}: params must be an object`);
  }
  const params: Params = request.params ?? {};
  const { inFlight } = env;
  try {
    const { inputRound } = env;
    let result: unknown;
    try {
      result = await handler(params, new RequestContext(engine, env));
    } catch (error) {
      if (!inputRound?.hasPending) throw error;
    }
    // An ask still unanswered replaces whatever the run returned or threw after it.
    if (inputRound?.hasPending) result = inputRound.inputRequired();
    if (env.trace) env.trace.returned = result;
    if (inFlight.cancelled) return undefined;
    // Encoded here, once, so a result that is not JSON fails this request, named, and
    // never the transport that would have encoded it.
    let encoded: RawJson;
    try {
      encoded = encode(engine, env, result);
    } catch (error) {
      return failure(id, ErrorCode.InternalError, cannotEncode(method, params, error));
    }
    // Past the size limit it is not sent: a tool's caller gets an isError result, others -32603.
    const bytes = sizeOver(encoded.json, engine.maxResultBytes);
    if (bytes !== undefined) {
      encoded = encode(engine, env, tooLarge(method, params, bytes, engine.maxResultBytes));
    }
    return success(id, encoded);
  } catch (error) {
    if (inFlight.cancelled) return undefined;
    if (isJsonRpcError(error)) return failure(id, error.code, error.message, error.data);
    engine.warn(`${method} failed: ${thrownDetail(error)}`);
    return failure(
      id,
      ErrorCode.InternalError,
      `Internal error in ${method}: ${thrownMessage(error)}`,
    );
  } finally {
    inFlight.finished = true;
  }
}

/** A result as the request's era sends it, encoded; throws what JSON.stringify throws. */
function encode(engine: Engine, env: RequestEnv, result: unknown): RawJson {
  return env.era === "stateless"
    ? encodeCompleteResult(result, engine.serverInfo())
    : RawJson.of(result);
}
