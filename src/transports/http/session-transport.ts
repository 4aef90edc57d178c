import type { AuthInfo } from "../../define/auth.js";
import {
  ErrorCode,
  encodeBatch,
  encodeMessage,
  idInUseMessage,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type Parsed,
} from "../../jsonrpc/index.js";
import { atLeast } from "../../protocol/versions.js";
import {
  type MessageReceiver,
  requiredScopesOf,
  type SendOptions,
  type Session,
  type Transport,
} from "../../server/index.js";
import type { EventRetention, SessionLog } from "../../server/replicas/session-log.js";
import type { ResolvedHttpOptions } from "../../settings/http-options.js";
import type { Caller } from "./caller.js";
import { EventStore, parseEventId, STANDALONE_STREAM } from "./event-store.js";
import { HTTP_NETWORK, type ResponseWriter } from "./exchange.js";
import { type ExchangeOwner, PostExchange } from "./post-exchange.js";
import type { ReplayPool } from "./replay-pool.js";
import { nothingToResume, sendError, sendJson, TRANSPORT_ERROR } from "./responses.js";
import { SseConnection } from "./sse.js";
import { StandaloneStream } from "./standalone-stream.js";

/** Where responses sent while a message is being delivered go when no request id routes them. */
type Capture = (response: JsonRpcResponse | JsonRpcResponse[]) => void;

const SESSION_ENDED = "The session ended before this request completed; initialize a new session";

/**
 * The Transport of one MCP session over Streamable HTTP: a response goes to
 * the POST that carried its request; a notification or request related to a
 * client request goes on that request's stream; anything else goes on the
 * standalone GET stream (kept for replay while no GET is connected).
 */
export class HttpSessionTransport implements Transport, ExchangeOwner {
  readonly store: EventStore;
  readonly retryMs: number;
  readonly network = HTTP_NETWORK;
  private receiver: MessageReceiver | undefined;
  private session: Session | undefined;
  /** In-flight requests by id; an entry goes when its response is sent. */
  private readonly exchanges = new Map<JsonRpcId, PostExchange>();
  /** Unfinished POST streams a client may resume, by stream number. */
  private readonly streams = new Map<number, PostExchange>();
  private readonly standalone: StandaloneStream;
  private lastStream = STANDALONE_STREAM;
  private capture: Capture | undefined;
  private isClosed = false;
  lastActivity = Date.now();

  /**
   * `owner`: the caller that opened the session (its callerKey); a request
   * from anyone else is refused at the door.
   */
  constructor(
    options: ResolvedHttpOptions,
    replay: ReplayPool,
    readonly owner: string | undefined,
    private readonly onClosed: (transport: HttpSessionTransport) => void,
  ) {
    this.store = new EventStore(options.replayMaxEvents, options.replayMaxBytes, replay);
    this.standalone = new StandaloneStream(this.store);
    this.retryMs = options.retryMs;
  }

  start(receiver: MessageReceiver): void {
    this.receiver = receiver;
  }

  /**
   * Called once `server.connect` has made the session. With a log shared by
   * replicas, its streams' events go there too, so another replica can
   * resume them.
   */
  bind(session: Session, log: SessionLog | undefined, keep: EventRetention): void {
    this.session = session;
    this.store.mirror = log?.open(session.id, this.owner, keep);
  }

  get sessionId(): string {
    return this.session?.id ?? "";
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** True while the client holds any connection to this session. */
  get connected(): boolean {
    if (this.standalone.connected) return true;
    for (const exchange of this.exchanges.values()) if (exchange.live) return true;
    return false;
  }

  get initialized(): boolean {
    return this.session?.initialized ?? false;
  }

  primes(): boolean {
    const version = this.session?.protocolVersion;
    return version !== undefined && atLeast(version, "2025-11-25");
  }

  /** A POST carrying requests: `ids` are their ids. */
  post(
    parsed: Parsed,
    res: ResponseWriter,
    ids: readonly JsonRpcId[],
    isInitialize: boolean,
    caller: Caller,
  ): void {
    this.lastActivity = Date.now();
    for (const id of ids) {
      if (this.exchanges.has(id)) {
        sendError(res, 400, ErrorCode.InvalidRequest, idInUseMessage(id));
        return;
      }
    }
    const exchange = new PostExchange(this, res, ids, isInitialize, caller.forbidden);
    for (const id of ids) this.exchanges.set(id, exchange);
    this.deliver(parsed, caller.auth, (response) => exchange.respond(encode(response)));
  }

  /**
   * A POST carrying no request: 202 for notifications and responses, 200 with
   * the errors of a batch's invalid items (which the session answers at once),
   * 400 with the session's refusal of the whole message.
   */
  accept(parsed: Parsed, res: ResponseWriter, auth: AuthInfo | undefined): void {
    this.lastActivity = Date.now();
    let answer: JsonRpcResponse | JsonRpcResponse[] | undefined;
    this.deliver(parsed, auth, (response) => {
      answer = response;
    });
    if (answer === undefined) {
      res.writeHead(202);
      res.end();
    } else {
      sendJson(res, Array.isArray(answer) ? 200 : 400, encode(answer));
    }
  }

  private deliver(parsed: Parsed, auth: AuthInfo | undefined, capture: Capture): void {
    this.capture = capture;
    try {
      this.receiver?.receive(parsed, auth);
    } finally {
      this.capture = undefined;
    }
    this.noteCancellations(parsed);
  }

  /** The engine sends nothing for a cancelled request: its POST learns of it here. */
  private noteCancellations(parsed: Parsed): void {
    const messages =
      parsed.kind === "single"
        ? [parsed.message]
        : parsed.kind === "batch"
          ? parsed.items.flatMap((item) => (item.ok ? [item.message] : []))
          : [];
    for (const message of messages) {
      const requestId = cancelledId(message);
      if (requestId !== undefined) this.exchanges.get(requestId)?.cancelled(requestId);
    }
  }

  /**
   * A GET without Last-Event-ID: the standalone stream, with what queued
   * while none was open. `until`: when the caller's token stops being
   * accepted; the stream ends then, and the client resumes it with a fresh one.
   */
  openStandalone(res: ResponseWriter, until: number | undefined): void {
    this.lastActivity = Date.now();
    const connection = this.connect(res, (closed) => this.standalone.detach(closed));
    connection.endAt(until);
    this.standalone.open(connection, this.primes() ? this.retryMs : undefined);
  }

  /**
   * A GET with Last-Event-ID: replay what followed it on that stream, then
   * carry the stream on. The standalone stream ends at `until`, as when
   * opened; a POST's stream does not: it ends with its request's response.
   */
  resume(res: ResponseWriter, lastEventId: string, until: number | undefined): void {
    this.lastActivity = Date.now();
    const position = parseEventId(lastEventId);
    const exchange = position && this.streams.get(position.stream);
    if (
      !position ||
      (position.stream !== STANDALONE_STREAM && !exchange && !this.store.has(position.stream))
    ) {
      sendError(res, 400, TRANSPORT_ERROR, nothingToResume(lastEventId));
      return;
    }
    if (position.stream === STANDALONE_STREAM) {
      const connection = this.connect(res, (closed) => this.standalone.detach(closed));
      connection.endAt(until);
      this.standalone.resume(connection, position.seq);
      return;
    }
    const connection = this.connect(res, (closed) => exchange?.detach(closed));
    for (const event of this.store.after(position.stream, position.seq)) {
      connection.event(event.id, event.data);
    }
    if (exchange) exchange.attach(connection);
    else connection.end();
  }

  private connect(
    res: ResponseWriter,
    onClose: (connection: SseConnection) => void,
  ): SseConnection {
    return new SseConnection(res, { "mcp-session-id": this.sessionId }, (connection) => {
      this.lastActivity = Date.now();
      onClose(connection);
    });
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (this.isClosed) return;
    if (Array.isArray(message)) {
      const responses = message as JsonRpcResponse[];
      const routed = responses.find((r) => r.id !== null && this.exchanges.has(r.id));
      const exchange = routed ? this.exchanges.get(routed.id as JsonRpcId) : undefined;
      if (exchange) exchange.respond(encodeBatch(message));
      else this.capture?.(responses);
      return;
    }
    if (!("method" in message)) {
      const exchange = message.id === null ? undefined : this.exchanges.get(message.id);
      if (exchange) exchange.respond(encodeMessage(message), requiredScopesOf(message));
      else this.capture?.(message);
      return;
    }
    const related = options?.relatedRequestId;
    const exchange = related === undefined ? undefined : this.exchanges.get(related);
    if (exchange) exchange.message(encodeMessage(message));
    else this.standalone.send(encodeMessage(message));
  }

  streamOpened(exchange: PostExchange): number {
    const stream = ++this.lastStream;
    this.streams.set(stream, exchange);
    return stream;
  }

  finished(exchange: PostExchange): void {
    for (const id of exchange.ids) {
      if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
    }
    if (exchange.streamId !== 0) this.streams.delete(exchange.streamId);
    this.lastActivity = Date.now();
    // A failed initialize leaves a session no client knows the id of.
    if (exchange.isInitialize && !this.initialized) void this.close();
  }

  abandoned(exchange: PostExchange): void {
    this.finished(exchange);
    // Nothing can reach this client any more, so stop the work rather than let it run unseen.
    for (const requestId of exchange.ids) {
      this.receiver?.receive({
        kind: "single",
        message: {
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId, reason: "The client disconnected before the response" },
        },
      });
    }
  }

  keepAlive(): void {
    this.standalone.keepAlive();
    for (const exchange of this.streams.values()) exchange.keepAlive();
  }

  /** What this session holds: in-flight requests, resumable streams, stored events. */
  get pending(): { exchanges: number; streams: number; events: number; eventBytes: number } {
    return {
      exchanges: new Set(this.exchanges.values()).size,
      streams: this.streams.size,
      events: this.store.size,
      eventBytes: this.store.byteSize,
    };
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.receiver?.closed();
    for (const exchange of new Set(this.exchanges.values())) {
      exchange.end(TRANSPORT_ERROR, SESSION_ENDED);
    }
    this.exchanges.clear();
    this.streams.clear();
    this.standalone.end();
    this.store.clear();
    this.onClosed(this);
  }
}

/** The request a `notifications/cancelled` names, if the message is one. */
function cancelledId(message: JsonRpcMessage): JsonRpcId | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled") return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === "string" || typeof requestId === "number" ? requestId : undefined;
}

function encode(response: JsonRpcResponse | JsonRpcResponse[]): string {
  return Array.isArray(response) ? encodeBatch(response) : encodeMessage(response);
}
