import { type EventStore, STANDALONE_STREAM } from "./event-store.js";
import type { SseConnection } from "./sse.js";

/**
 * A session's GET stream: messages related to no request (list_changed,
 * resources/updated). Every message is stored first, so what arrives while no
 * GET is open reaches the next one, and a dropped GET can resume.
 */
export class StandaloneStream {
  private connection: SseConnection | undefined;
  /** Events up to this sequence number reached a connection. */
  private delivered = 0;

  constructor(private readonly store: EventStore) {}

  get connected(): boolean {
    return this.connection?.open ?? false;
  }

  /**
   * A GET without Last-Event-ID: what is still undelivered, the priming event
   * (after them, so its id, the one a dropped client resumes from, is past
   * theirs), then live messages.
   */
  open(connection: SseConnection, retryMs: number | undefined): void {
    this.take(connection);
    this.replay(connection, this.delivered);
    if (retryMs !== undefined) {
      connection.event(this.store.nextId(STANDALONE_STREAM), "", retryMs);
    }
  }

  /** A GET with a Last-Event-ID of this stream: what followed `seq`, then live messages. */
  resume(connection: SseConnection, seq: number): void {
    this.take(connection);
    this.replay(connection, seq);
  }

  send(text: string): void {
    const id = this.store.append(STANDALONE_STREAM, text);
    if (this.connection?.event(id, text)) this.delivered = this.store.lastSeq;
  }

  detach(connection: SseConnection): void {
    if (this.connection === connection) this.connection = undefined;
  }

  keepAlive(): void {
    this.connection?.comment("keep-alive");
  }

  end(): void {
    this.connection?.end();
    this.connection = undefined;
  }

  /** One GET at a time: a new one takes over, so no message goes out twice. */
  private take(connection: SseConnection): void {
    const previous = this.connection;
    this.connection = connection;
    previous?.end();
  }

  private replay(connection: SseConnection, afterSeq: number): void {
    for (const event of this.store.after(STANDALONE_STREAM, afterSeq)) {
      connection.event(event.id, event.data);
    }
    this.delivered = this.store.lastSeq;
  }
}
