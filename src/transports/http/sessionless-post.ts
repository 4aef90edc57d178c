import type { AuthInfo } from "../../define/auth.js";
import {
  ErrorCode,
  failure,
  isRawJson,
  isRequest,
  isResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Parsed,
} from "../../jsonrpc/index.js";
import type { InitializeResult, ServerCapabilities } from "../../protocol/types.js";
import { LATEST_STATEFUL_VERSION } from "../../protocol/versions.js";
import { type McpServer, methodsFor, type Transport } from "../../server/index.js";
import { type Caller, sendResponse } from "./caller.js";
import { HTTP_NETWORK, type ResponseWriter } from "./exchange.js";
import { sendEmpty, sendError, TRANSPORT_ERROR } from "./responses.js";

type Params = Record<string, unknown>;

const WARM_UP_ID = "mcp-dir-stateless-initialize";

/** A 2025 POST where no session is kept: each request answered on its own. */
export function postSessionless(
  server: McpServer,
  parsed: Exclude<Parsed, { kind: "invalid" }>,
  versionHeader: string | undefined,
  res: ResponseWriter,
  caller: Caller,
): void {
  if (parsed.kind === "batch") {
    sendError(
      res,
      400,
      ErrorCode.InvalidRequest,
      "Invalid Request: POST one JSON-RPC message, not a batch",
    );
    return;
  }
  const { message } = parsed;
  if (isResponse(message)) {
    sendError(
      res,
      400,
      TRANSPORT_ERROR,
      "Bad Request: this server sends no requests, so it takes no responses",
    );
  } else if (isRequest(message)) {
    void serveSessionlessPost(server, message, versionHeader, caller.auth).then((response) =>
      sendResponse(res, response, caller),
    );
  } else {
    // A notification (initialized, cancelled) has nothing to act on without a session.
    sendEmpty(res, 202);
  }
}

/**
 * One 2025 request served without a session, as a deployment with no
 * long-lived process must: a session opened for this request alone, at the
 * revision the client's MCP-Protocol-Version header names (`initialize` itself
 * negotiates as usual), and closed with the response. Nothing reaches the
 * client but that response: no progress or log stream (so `initialize` offers
 * no list changes, subscriptions, logging or tasks), and a handler that
 * asks the client (elicitation, sampling, roots) is told it cannot.
 */
export function serveSessionlessPost(
  server: McpServer,
  request: JsonRpcRequest,
  versionHeader: string | undefined,
  auth: AuthInfo | undefined,
): Promise<JsonRpcResponse> {
  // What only a session can deliver: refused, not accepted and silently never honoured.
  if (methodsFor("stateful").get(request.method)?.needsSession) {
    return Promise.resolve(
      failure(
        request.id,
        ErrorCode.InvalidRequest,
        `Invalid Request: ${request.method} needs a session, and this endpoint keeps none (it runs without a long-lived process): read the resource again when you need it, or use protocol 2026-07-28 and a subscriptions/listen stream`,
      ),
    );
  }
  if (
    request.method === "tools/call" &&
    (request.params as Params | undefined)?.task !== undefined
  ) {
    return Promise.resolve(
      failure(
        request.id,
        ErrorCode.InvalidRequest,
        'Invalid Request: a task (tools/call with "task") needs a session, and this endpoint keeps none (it runs without a long-lived process): call the tool without "task", or use protocol 2026-07-28, whose tasks need no session',
      ),
    );
  }
  return new Promise((resolve) => {
    const transport: Transport = {
      network: HTTP_NETWORK,
      start() {},
      send(sent) {
        for (const message of Array.isArray(sent) ? sent : [sent]) {
          if (isResponse(message) && message.id === request.id) {
            session.closed();
            resolve(request.method === "initialize" ? withoutSession(message) : message);
          } else if (isRequest(message)) {
            // No stream to carry it: refuse at once so the handler is not left waiting.
            session.receive({ kind: "single", message: cannotAsk(message.id, message.method) });
          }
        }
      },
      close: async () => {},
    };
    const session = server.openSession(transport);
    if (request.method !== "initialize") {
      session.receive({ kind: "single", message: warmUp(versionHeader) });
      session.receive({
        kind: "single",
        message: { jsonrpc: "2.0", method: "notifications/initialized" },
      });
    }
    session.receive({ kind: "single", message: request }, auth);
  });
}

/**
 * An initialize result as this endpoint can honour it: no notification
 * reaches its client (list changes, resource updates, log messages) and tasks
 * need a session, so none of them is offered.
 */
function withoutSession(response: JsonRpcResponse): JsonRpcResponse {
  if (!("result" in response)) return response;
  const { result: sent } = response;
  const result = (isRawJson(sent) ? sent.toJSON() : sent) as InitializeResult;
  const { logging: _logging, tasks: _tasks, ...kept } = result.capabilities;
  const capabilities: ServerCapabilities = {
    ...kept,
    ...(kept.tools && { tools: {} }),
    ...(kept.prompts && { prompts: {} }),
    ...(kept.resources && { resources: {} }),
  };
  return { ...response, result: { ...result, capabilities } };
}

function warmUp(version: string | undefined): JsonRpcMessage {
  return {
    jsonrpc: "2.0",
    id: WARM_UP_ID,
    method: "initialize",
    params: {
      protocolVersion: version ?? LATEST_STATEFUL_VERSION,
      capabilities: {},
      clientInfo: { name: "stateless-client", version: "0" },
    },
  };
}

function cannotAsk(id: JsonRpcId, method: string): JsonRpcResponse {
  return failure(
    id,
    ErrorCode.InternalError,
    `${method} cannot reach the client: this endpoint keeps no session, so the server cannot send it requests`,
  );
}
