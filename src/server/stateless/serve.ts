import type { AuthInfo } from "../../define/auth.js";
import {
  ErrorCode,
  failure,
  isJsonRpcError,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../../jsonrpc/index.js";
import { LOGGING_LEVELS } from "../../protocol/types.js";
import { type RequestTrace, requestChannel } from "../../tracing/channels.js";
import { dispatch } from "../dispatch.js";
import type { Engine } from "../engine.js";
import type { ClientChannel, RequestEnv } from "../env.js";
import type { InFlight } from "../in-flight.js";
import { InputRound } from "../input-rounds/input-round.js";
import { callerKey } from "../input-rounds/request-state.js";
import { methodsFor } from "../methods/index.js";
import { logParams } from "../notices.js";
import { notifySafely } from "../send-safely.js";
import { serverFault } from "../server-fault.js";
import { type Envelope, readEnvelope } from "./envelope.js";

/**
 * Serves one 2026-07-28 request: no session, everything it needs is in its
 * `_meta`. `channel` carries what relates to it (progress, logs) back to its
 * client until it is answered or cancelled through `inFlight`; aborting
 * `closing` ends a long-lived one (a listen stream) with its graceful result. Resolves to the
 * response, or to undefined when it was cancelled. Every transport serves a
 * 2026 request through here (`McpServer.serveStateless`), so it never
 * rejects: whatever escapes is the server's fault, answered as one.
 * `principal` is who sent it, when the transport authenticated it.
 */
export function serveStateless(
  engine: Engine,
  request: JsonRpcRequest,
  channel: ClientChannel,
  inFlight: InFlight,
  closing?: AbortSignal,
  auth?: AuthInfo,
): Promise<JsonRpcResponse | undefined> {
  if (!requestChannel?.hasSubscribers) {
    return serve(engine, request, { channel, inFlight, closing, auth, trace: undefined });
  }
  const trace: RequestTrace = { request, era: "stateless", network: channel.network };
  return requestChannel.tracePromise(
    () => serve(engine, request, { channel, inFlight, closing, auth, trace }),
    trace,
  );
}

/** What a 2026-07-28 request is served with besides its message. */
interface Carried {
  readonly channel: ClientChannel;
  readonly inFlight: InFlight;
  readonly closing: AbortSignal | undefined;
  /** The caller its transport verified. */
  readonly auth: AuthInfo | undefined;
  /** What is published of it while something traces it. */
  readonly trace: RequestTrace | undefined;
}

async function serve(
  engine: Engine,
  request: JsonRpcRequest,
  carried: Carried,
): Promise<JsonRpcResponse | undefined> {
  try {
    return await answer(engine, request, carried);
  } catch (error) {
    const response = serverFault(engine, request, error);
    return carried.inFlight.cancelled ? undefined : response;
  }
}

async function answer(
  engine: Engine,
  request: JsonRpcRequest,
  carried: Carried,
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
    if (described.asksInput) {
      inputRound = InputRound.open(engine.inputRounds, method, params, carried.auth);
    }
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
  const env = statelessEnv(engine, id, envelope, carried, inputRound);
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
  { channel, inFlight, closing, auth, trace }: Carried,
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
    // Nothing more reaches the client of a cancelled or answered request: what
    // relates to it (logs, progress) goes on its stream before its response only,
    // and over stdio a later one would read as the next request's.
    channel: {
      notify: (method, params) => {
        if (inFlight.cancelled || inFlight.finished) return;
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
    trace,
    ...(auth !== undefined && { auth, principal: callerKey(auth) }),
  };
}
