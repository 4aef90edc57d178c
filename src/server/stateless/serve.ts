import {
  ErrorCode,
  failure,
  isJsonRpcError,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../../jsonrpc/index.js";
import { LOGGING_LEVELS } from "../../protocol/types.js";
import { dispatch } from "../dispatch.js";
import type { Engine } from "../engine.js";
import type { ClientChannel, RequestEnv } from "../env.js";
import type { InFlight } from "../in-flight.js";
import { InputRound } from "../input-rounds/input-round.js";
import { methodsFor } from "../methods/index.js";
import { logParams } from "../notices.js";
import { notifySafely } from "../send-safely.js";
import { serverFault } from "../server-fault.js";
import { type Envelope, readEnvelope } from "./envelope.js";

/**
 * Serves one 2026-07-28 request: no session, everything it needs is in its
 * `_meta`. `channel` carries what relates to it (progress, logs) back to its
 * client until it is cancelled through `inFlight`; aborting `closing` ends a
 * long-lived one (a listen stream) with its graceful result. Resolves to the
 * response, or to undefined when it was cancelled. Every transport serves a
 * 2026 request through here (`McpServer.serveStateless`), so it never
 * rejects: whatever escapes is the server's fault, answered as one.
 */
export async function serveStateless(
  engine: Engine,
  request: JsonRpcRequest,
  channel: ClientChannel,
  inFlight: InFlight,
  closing?: AbortSignal,
): Promise<JsonRpcResponse | undefined> {
  try {
    return await answer(engine, request, channel, inFlight, closing);
  } catch (error) {
    const response = serverFault(engine, request, error);
    return inFlight.cancelled ? undefined : response;
  }
}

async function answer(
  engine: Engine,
  request: JsonRpcRequest,
  channel: ClientChannel,
  inFlight: InFlight,
  closing: AbortSignal | undefined,
): Promise<JsonRpcResponse | undefined> {
  const { id, method } = request;
  const described = methodsFor("stateless").get(method);
  if (!described) {
    return failure(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
  if (Array.isArray(request.params)) {
    return failure(id, ErrorCode.InvalidParams, `${method}: params must be an object`);
  }
  const params = request.params ?? {};
  let envelope: Envelope;
  let inputRound: InputRound | undefined;
  try {
    envelope = readEnvelope(method, params);
    if (described.asksInput) inputRound = InputRound.open(engine.inputRounds, method, params);
  } catch (error) {
    if (!isJsonRpcError(error)) throw error;
    return failure(id, error.code, error.message, error.data);
  }
  const { capability } = described;
  if (capability && !engine.capabilities(envelope.protocolVersion)[capability]) {
    return failure(
      id,
      ErrorCode.MethodNotFound,
      `Method not found: ${method} (this server offers no ${capability})`,
    );
  }
  const env = statelessEnv(engine, id, envelope, channel, inFlight, closing, inputRound);
  // Log messages go with a request's response, never on a listen stream.
  if (method !== "subscriptions/listen") {
    for (const notice of engine.notices()) {
      if (env.wantsLog(notice.level))
        env.channel.notify("notifications/message", logParams(notice));
    }
  }
  return dispatch(engine, request, env);
}

function statelessEnv(
  engine: Engine,
  requestId: JsonRpcRequest["id"],
  envelope: Envelope,
  channel: ClientChannel,
  inFlight: InFlight,
  closing: AbortSignal | undefined,
  inputRound: InputRound | undefined,
): RequestEnv {
  const { logLevel } = envelope;
  const least = logLevel === undefined ? LOGGING_LEVELS.length : LOGGING_LEVELS.indexOf(logLevel);
  return {
    era: "stateless",
    requestId,
    protocolVersion: envelope.protocolVersion,
    clientInfo: envelope.clientInfo,
    clientCapabilities: envelope.clientCapabilities,
    progressToken: envelope.progressToken,
    inFlight,
    // No request to the client: a 2026 server asks through its result instead.
    // Nothing more reaches the client of a cancelled request.
    channel: {
      notify: (method, params) => {
        if (inFlight.cancelled) return;
        notifySafely(
          (message) => engine.warn(message),
          method,
          () => channel.notify(method, params),
        );
      },
    },
    wantsLog: (level) => LOGGING_LEVELS.indexOf(level) >= least,
    closing,
    inputRound,
  };
}
