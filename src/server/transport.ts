import type { AuthInfo } from "../define/auth.js";
import type { JsonRpcId, JsonRpcMessage, Parsed } from "../jsonrpc/index.js";
import type { Network } from "../tracing/channels.js";

export interface SendOptions {
  /** The client request this message belongs to (HTTP sends it on that request's stream). */
  relatedRequestId?: JsonRpcId;
}

/** What a transport delivers to the engine. */
export interface MessageReceiver {
  /** `auth`: the caller the transport verified for these messages (HTTP with OAuth). */
  receive(parsed: Parsed, auth?: AuthInfo): void;
  /**
   * The client will send nothing more (stdin ended) but may still read: the
   * requests it sent are answered (each within its time limit), then this
   * resolves. What the server asked of the client fails, as no answer can come.
   */
  inputEnded(): Promise<void>;
  /** The connection is gone both ways: what runs is cancelled, unanswered. */
  closed(): void;
}

/** Bytes in, messages out: stdio and Streamable HTTP implement this. */
export interface Transport {
  start(receiver: MessageReceiver): void;
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void;
  close(): Promise<void>;
  /** How its bytes travel, as traces name it: `{ transport: "pipe" }` for stdio. */
  readonly network?: Network;
}
