import { randomUUID } from "node:crypto";
import type { AuthInfo } from "../define/auth.js";
import {
  ErrorCode,
  failure,
  idInUseMessage,
  isRequest,
  isResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Parsed,
} from "../jsonrpc/index.js";
import {
  type ClientCapabilities,
  type Implementation,
  LOGGING_LEVELS,
  type LoggingLevel,
} from "../protocol/types.js";
import { type ProtocolVersion, supports } from "../protocol/versions.js";
import { type RequestTrace, requestChannel } from "../tracing/channels.js";
import { type ServerChange, updates } from "./change-bus.js";
import { dispatch } from "./dispatch.js";
import type { Engine } from "./engine.js";
import type { RequestEnv, SessionState } from "./env.js";
import { InFlight } from "./in-flight.js";
import { callerKey } from "./input-rounds/request-state.js";
import { methodsFor } from "./methods/index.js";
import { type LogMessage, logParams } from "./notices.js";
import { OutboundRequests } from "./outbound.js";
import type { Params } from "./params.js";
import { PendingReplies } from "./pending-replies.js";
import { notifySafely } from "./send-safely.js";
import { reportServerFault, serverFault } from "./server-fault.js";
import type { MessageReceiver, SendOptions, Transport } from "./transport.js";

const INPUT_ENDED =
  "The client's input ended before it answered: nothing it sends can arrive any more";

/**
 * One client connection in the stateful era: what initialize negotiated, the
 * log level, resource subscriptions, requests in flight both ways.
 */
export class Session implements MessageReceiver, SessionState {
  readonly id = randomUUID();
  readonly state = new Map<string, unknown>();
  readonly subscriptions = new Set<string>();
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities = {};
  protocolVersion: ProtocolVersion | undefined;
  logLevel: LoggingLevel;
  private readonly inFlight = new Map<JsonRpcId, InFlight>();
  private readonly outbound: OutboundRequests;
  private readonly unsubscribe: () => void;
  private readonly replies = new PendingReplies();
  private inputOver = false;
  private isClosed = false;
  /** Whether the client said it is initialized: from then on it hears the server's notices. */
  private toldInitialized = false;
  /** Bytes of the server's memory budget this session holds, given back when it ends. */
  private held = 0;

  constructor(
    private readonly engine: Engine,
    private readonly transport: Transport,
    private readonly onClosed: (session: Session) => void,
  ) {
    this.logLevel = engine.defaultLogLevel;
    this.outbound = new OutboundRequests((id, reason) =>
      this.notify("notifications/cancelled", { requestId: id, reason }),
    );
    this.unsubscribe = engine.bus.subscribe((change) => this.changed(change));
  }

  /** Tells the client what changed, once initialized: what it listed, what it subscribed to. */
  private changed(change: ServerChange): void {
    if (!this.initialized) return;
    if (change.tools) this.notify("notifications/tools/list_changed", {});
    if (change.prompts) this.notify("notifications/prompts/list_changed", {});
    if (change.resources) this.notify("notifications/resources/list_changed", {});
    const updated = new Set(change.updatedUris);
    for (const uri of this.subscriptions) {
      if (updates(change, uri, updated)) this.notify("notifications/resources/updated", { uri });
    }
  }

  get initialized(): boolean {
    return this.protocolVersion !== undefined;
  }

  get ended(): boolean {
    return this.isClosed;
  }

  initialize(
    version: ProtocolVersion,
    capabilities: ClientCapabilities,
    info: Implementation | undefined,
  ): void {
    this.protocolVersion = version;
    this.clientCapabilities = capabilities;
    this.clientInfo = info;
  }

  hold(bytes: number, method: string): void {
    this.engine.memory.take(bytes, method);
    this.held += bytes;
  }

  release(bytes: number): void {
    this.engine.memory.give(bytes);
    this.held -= bytes;
  }

  wantsLog(level: LoggingLevel): boolean {
    return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(this.logLevel);
  }

  /** Whether the server's notices reach this session as they are set (see McpServer.setNotice). */
  get hearsNotices(): boolean {
    return this.toldInitialized;
  }

  /** Sends a log message, if the session's level lets it through. */
  log(message: LogMessage): void {
    if (this.wantsLog(message.level)) this.notify("notifications/message", logParams(message));
  }

  receive(parsed: Parsed, auth?: AuthInfo): void {
    if (parsed.kind === "invalid") {
      this.send(parsed.error);
    } else if (parsed.kind === "single") {
      const reply = this.process(parsed.message, auth);
      if (reply) this.replying(reply.then((response) => response && this.send(response)));
    } else {
      const reply = this.receiveBatch(parsed.items, auth);
      if (reply) this.replying(reply);
    }
  }

  private replying(reply: Promise<unknown>): void {
    this.replies.add(reply, (error) =>
      reportServerFault(this.engine, "sending a response in a 2025 session", error),
    );
  }

  /**
   * Answers a batch with one array. Only requests are awaited: a batch without
   * any is answered before this returns, as its refusal is, so a transport
   * can tell from what it was sent meanwhile how to answer the message that
   * carried it (HTTP: the batch's errors, or a refusal, rather than 202).
   */
  private receiveBatch(
    items: Extract<Parsed, { kind: "batch" }>["items"],
    auth: AuthInfo | undefined,
  ): Promise<void> | undefined {
    if (!this.protocolVersion || !supports(this.protocolVersion, "batching")) {
      const why = this.protocolVersion
        ? `protocol ${this.protocolVersion} does not allow them (only 2025-03-26 does)`
        : "initialize must come first, on its own, and negotiate 2025-03-26";
      this.send(
        failure(null, ErrorCode.InvalidRequest, `Invalid Request: batches are refused: ${why}`),
      );
      return undefined;
    }
    const replies = items.map((item) => (item.ok ? this.process(item.message, auth) : item.error));
    if (!replies.some((reply) => reply instanceof Promise)) {
      this.sendBatch(replies as (JsonRpcResponse | undefined)[]);
      return undefined;
    }
    return Promise.all(replies).then((responses) => this.sendBatch(responses));
  }

  private sendBatch(replies: (JsonRpcResponse | undefined)[]): void {
    const responses = replies.filter((r): r is JsonRpcResponse => r !== undefined);
    if (responses.length > 0) this.send(responses);
  }

  /** Handles one message; resolves to the response to send, if any. */
  private process(
    message: JsonRpcMessage,
    auth: AuthInfo | undefined,
  ): Promise<JsonRpcResponse | undefined> | undefined {
    if (isRequest(message)) return this.handleRequest(message, auth);
    if (isResponse(message)) {
      if (!this.outbound.settle(message)) {
        this.engine.warn(
          `ignored a response to an unknown request id ${JSON.stringify(message.id)}`,
        );
      }
      return undefined;
    }
    this.handleNotification(message);
    return undefined;
  }

  /** Answers one request, published as one trace while something subscribes. */
  private handleRequest(
    request: JsonRpcRequest,
    auth: AuthInfo | undefined,
  ): Promise<JsonRpcResponse | undefined> {
    if (!requestChannel?.hasSubscribers) return this.answer(request, auth, undefined);
    const trace: RequestTrace = {
      request,
      era: "stateful",
      session: this,
      network: this.transport.network,
    };
    return requestChannel.tracePromise(() => this.answer(request, auth, trace), trace);
  }

  private async answer(
    request: JsonRpcRequest,
    auth: AuthInfo | undefined,
    trace: RequestTrace | undefined,
  ): Promise<JsonRpcResponse | undefined> {
    const { id, method } = request;
    const known = methodsFor("stateful").get(method);
    if (this.protocolVersion === undefined && known && !known.beforeInitialize) {
      return failure(
        id,
        ErrorCode.InvalidRequest,
        `Server not initialized: send "initialize" before "${method}"`,
      );
    }
    if (this.inFlight.has(id)) {
      return failure(id, ErrorCode.InvalidRequest, idInUseMessage(id));
    }
    const inFlight = new InFlight();
    this.inFlight.set(id, inFlight);
    try {
      return await dispatch(this.engine, request, this.envFor(request, inFlight, auth, trace));
    } catch (error) {
      // dispatch answers every error of the handler's: what escapes it is the server's.
      const response = serverFault(this.engine, request, error);
      return inFlight.cancelled ? undefined : response;
    } finally {
      if (this.inFlight.get(id) === inFlight) this.inFlight.delete(id);
    }
  }

  private envFor(
    request: JsonRpcRequest,
    inFlight: InFlight,
    auth: AuthInfo | undefined,
    trace: RequestTrace | undefined,
  ): RequestEnv {
    const relatedRequestId = request.id;
    const params = request.params as Params | undefined;
    const token = (params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    return {
      era: "stateful",
      requestId: request.id,
      protocolVersion: this.protocolVersion ?? "",
      clientInfo: this.clientInfo,
      clientCapabilities: this.clientCapabilities,
      progressToken: typeof token === "string" || typeof token === "number" ? token : undefined,
      inFlight,
      channel: {
        notify: (method, notifyParams) => this.notify(method, notifyParams, { relatedRequestId }),
        request: (method, requestParams, signal) =>
          this.request(method, requestParams, { signal, relatedRequestId }),
      },
      wantsLog: (level) => this.wantsLog(level),
      session: this,
      trace,
      ...(auth !== undefined && { auth, principal: callerKey(auth) }),
    };
  }

  private handleNotification(notification: JsonRpcNotification): void {
    const params = (notification.params ?? {}) as Params;
    switch (notification.method) {
      case "notifications/cancelled": {
        const id = params.requestId as JsonRpcId;
        const reason =
          typeof params.reason === "string" ? params.reason : "Cancelled by the client";
        this.inFlight.get(id)?.cancel(reason);
        return;
      }
      case "notifications/initialized":
        // What stands was set before the session could hear it: each is told once, now.
        if (this.toldInitialized || !this.initialized) return;
        this.toldInitialized = true;
        for (const message of this.engine.notices()) this.log(message);
        return;
      default:
        // roots/list_changed, progress: nothing to do.
        return;
    }
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (!this.isClosed) this.transport.send(message, options);
  }

  notify(method: string, params: Params, options?: SendOptions): void {
    notifySafely(
      (message) => this.engine.warn(message),
      method,
      () => this.send({ jsonrpc: "2.0", method, params }, options),
    );
  }

  request(
    method: string,
    params: Params,
    options: { signal?: AbortSignal; relatedRequestId?: JsonRpcId } = {},
  ): Promise<unknown> {
    if (this.isClosed) return Promise.reject(new Error("The session is closed"));
    if (this.inputOver) return Promise.reject(new Error(INPUT_ENDED));
    return this.outbound.create(method, params, options.signal, (request) =>
      this.send(request, { relatedRequestId: options.relatedRequestId }),
    );
  }

  async inputEnded(): Promise<void> {
    this.inputOver = true;
    this.outbound.rejectAll(INPUT_ENDED);
    await this.replies.settled();
  }

  /** The transport closed: abort what runs, reject what waits, forget the session. */
  closed(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.unsubscribe();
    this.release(this.held);
    for (const inFlight of this.inFlight.values()) inFlight.cancel("The connection closed");
    this.inFlight.clear();
    this.outbound.rejectAll("The connection closed before the client answered");
    this.onClosed(this);
  }

  async close(): Promise<void> {
    this.closed();
    await this.transport.close();
  }
}
