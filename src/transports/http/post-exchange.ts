import { failure, type JsonRpcId } from "../../jsonrpc/index.js";
import { McpErrorCode } from "../../protocol/errors.js";
import type { EventStore } from "./event-store.js";
import type { ResponseHeaders, ResponseWriter } from "./exchange.js";
import { SseConnection } from "./sse.js";

/** What an exchange needs from the session transport that owns it. */
export interface ExchangeOwner {
  readonly sessionId: string;
  readonly store: EventStore;
  readonly retryMs: number;
  /** Whether initialize succeeded (only then does the client learn the session id). */
  readonly initialized: boolean;
  /** Whether this session's clients understand priming events (2025-11-25 and newer). */
  primes(): boolean;
  /** The exchange opened an SSE stream: it becomes resumable under `stream`. */
  streamOpened(exchange: PostExchange): number;
  /** The response went out (or could not): forget the exchange. */
  finished(exchange: PostExchange): void;
  /** The client left before any event with an id reached it: it cannot resume. */
  abandoned(exchange: PostExchange): void;
}

type State = "pending" | "streaming" | "done";

/**
 * The answer to one POST that carried a request (or a 2025-03-26 batch with
 * requests). It starts undecided: when the response is the first thing the
 * session sends, it goes out as plain `application/json`; when a related
 * notification or server→client request comes first, it becomes an SSE stream
 * that carries those messages and then the response.
 */
export class PostExchange {
  private state: State = "pending";
  private stream = 0;
  private connection: SseConnection | undefined;
  private readonly cancelledIds = new Set<JsonRpcId>();

  /**
   * `forbidden`: the headers of a 403 for a call that needs scopes the
   * caller's token lacks (undefined without OAuth).
   */
  constructor(
    private readonly owner: ExchangeOwner,
    private readonly res: ResponseWriter,
    readonly ids: readonly JsonRpcId[],
    readonly isInitialize: boolean,
    private readonly forbidden?: (scopes: readonly string[]) => ResponseHeaders,
  ) {
    res.once("close", () => {
      if (this.state === "pending") {
        this.state = "done";
        owner.abandoned(this);
      }
    });
  }

  get streamId(): number {
    return this.stream;
  }

  /** True while an HTTP connection waits on this exchange. */
  get live(): boolean {
    return this.state === "pending" || (this.state === "streaming" && !!this.connection?.open);
  }

  /** A notification or server→client request related to this exchange's request. */
  message(text: string): void {
    if (this.state === "done") return;
    if (this.state === "pending") this.openStream();
    const id = this.owner.store.append(this.stream, text);
    this.connection?.event(id, text);
  }

  /**
   * The response (or, for a batch, the array of responses). `scopes`: those
   * an insufficient-scope answer names; sent whole, it is a 403 with the
   * challenge, so the client can authorize again and retry.
   */
  respond(text: string, scopes?: readonly string[]): void {
    if (this.state === "pending") {
      this.state = "done";
      const challenge = scopes && this.ids.length === 1 ? this.forbidden?.(scopes) : undefined;
      const headers: ResponseHeaders = {
        ...challenge,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      };
      if (this.isInitialize && this.owner.initialized)
        headers["mcp-session-id"] = this.owner.sessionId;
      this.res.writeHead(challenge ? 403 : 200, headers);
      this.res.end(text);
    } else if (this.state === "streaming") {
      this.state = "done";
      const id = this.owner.store.append(this.stream, text, true);
      this.connection?.event(id, text);
      this.connection?.end();
      this.connection = undefined;
    } else {
      return;
    }
    this.owner.finished(this);
  }

  /** Carries the stream on from a client that resumed it with Last-Event-ID. */
  attach(connection: SseConnection): void {
    const previous = this.connection;
    this.connection = connection;
    previous?.end();
  }

  detach(connection: SseConnection): void {
    if (this.connection === connection) this.connection = undefined;
  }

  keepAlive(): void {
    this.connection?.comment("keep-alive");
  }

  /**
   * The client cancelled one of this POST's requests. The engine sends
   * nothing for a cancelled request, so once all are cancelled nothing would
   * ever close the POST: it closes with errors the client will ignore.
   */
  cancelled(id: JsonRpcId): void {
    this.cancelledIds.add(id);
    if (this.cancelledIds.size === this.ids.length) {
      this.end(McpErrorCode.RequestCancelled, "Request cancelled by the client");
    }
  }

  /** The session ended first: answer every request with `error`, then close. */
  end(code: number, message: string): void {
    if (this.state === "done") return;
    const errors = this.ids.map((id) => failure(id, code, message));
    this.respond(JSON.stringify(errors.length === 1 ? errors[0] : errors));
  }

  private openStream(): void {
    const owner = this.owner;
    this.connection = new SseConnection(
      this.res,
      { "mcp-session-id": owner.sessionId },
      (connection) => this.detach(connection),
    );
    this.state = "streaming";
    this.stream = owner.streamOpened(this);
    if (owner.primes()) this.connection.event(owner.store.nextId(this.stream), "", owner.retryMs);
  }
}
