import type { JsonRpcId, JsonRpcMessage, Parsed } from "../jsonrpc/index.js";

export interface SendOptions {
  /** The client request this message belongs to (HTTP sends it on that request's stream). */
  relatedRequestId?: JsonRpcId;
}

/** What a transport delivers to the engine. */
export interface MessageReceiver {
  receive(parsed: Parsed): void;
  closed(): void;
}

/** Bytes in, messages out: stdio and Streamable HTTP implement this. */
export interface Transport {
  start(receiver: MessageReceiver): void;
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void;
  close(): Promise<void>;
}
