import {
  encodeBatch,
  encodeMessage,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcResponse,
  parseMessage,
} from "../jsonrpc/index.js";
import type { InitializeResult } from "../protocol/types.js";
import type { StatefulVersion } from "../protocol/versions.js";
import type { McpServer } from "../server/server.js";
import type { MessageReceiver, Transport } from "../server/transport.js";
import {
  abortReason,
  CLOSED_BEFORE_ANSWER,
  CLOSED_BEFORE_SENT,
  type Link,
  type LinkOptions,
  type Params,
  resultOf,
  type ServerIdentity,
} from "./link.js";

/**
 * A 2025 session with a server in this process: the server's own
 * `connect(transport)` over a transport whose two ends are here. Every
 * message is encoded and parsed as it would be on the wire, and delivered a
 * microtask later, in order, as a stream would.
 */
export class StatefulLink implements Link, Transport {
  private receiver: MessageReceiver | undefined;
  private readonly pending = new Map<JsonRpcId, (response: JsonRpcResponse) => void>();
  private nextId = 0;
  private closed = false;
  private identity: ServerIdentity | undefined;

  private constructor(private readonly options: LinkOptions) {}

  /** Connects to `server` and initializes a session at `version`. */
  static async open(
    server: McpServer,
    version: StatefulVersion,
    options: LinkOptions,
  ): Promise<StatefulLink> {
    const link = new StatefulLink(options);
    server.connect(link);
    const result = (await link.request("initialize", {
      protocolVersion: version,
      capabilities: options.capabilities,
      clientInfo: options.clientInfo,
    })) as unknown as InitializeResult;
    link.identity = {
      protocolVersion: result.protocolVersion,
      capabilities: result.capabilities,
      serverInfo: result.serverInfo,
      instructions: result.instructions,
    };
    link.toServer({ jsonrpc: "2.0", method: "notifications/initialized" });
    if (options.logLevel !== undefined) {
      await link.request("logging/setLevel", { level: options.logLevel });
    }
    return link;
  }

  get server(): ServerIdentity {
    if (!this.identity) throw new Error("The session is not initialized yet");
    return this.identity;
  }

  // The server's side of the transport.

  start(receiver: MessageReceiver): void {
    this.receiver = receiver;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.closed) return;
    const text = Array.isArray(message) ? encodeBatch(message) : encodeMessage(message);
    queueMicrotask(() => this.fromServer(JSON.parse(text) as JsonRpcMessage | JsonRpcMessage[]));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.receiver?.closed();
    for (const settle of this.pending.values()) {
      settle({ jsonrpc: "2.0", id: null, error: { code: -32000, message: CLOSED_BEFORE_ANSWER } });
    }
    this.pending.clear();
  }

  // The client's side.

  request(method: string, params: Params, signal?: AbortSignal): Promise<Params> {
    if (this.closed) return Promise.reject(new Error(CLOSED_BEFORE_SENT));
    if (signal?.aborted) return Promise.reject(abortReason(signal, "The request was aborted"));
    const id = ++this.nextId;
    return new Promise<Params>((resolve, reject) => {
      const aborted = () => {
        this.pending.delete(id);
        const error = abortReason(signal, "The request was aborted");
        this.toServer({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason: error.message },
        });
        reject(error);
      };
      signal?.addEventListener("abort", aborted, { once: true });
      this.pending.set(id, (response) => {
        signal?.removeEventListener("abort", aborted);
        if (response.id === null) reject(new Error(CLOSED_BEFORE_ANSWER));
        else {
          try {
            resolve(resultOf(response));
          } catch (error) {
            reject(error);
          }
        }
      });
      this.toServer({ jsonrpc: "2.0", id, method, params });
    });
  }

  private toServer(message: JsonRpcMessage): void {
    if (this.closed) return;
    const text = JSON.stringify(message);
    queueMicrotask(() => {
      if (!this.closed) this.receiver?.receive(parseMessage(text));
    });
  }

  private fromServer(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.closed) return;
    for (const item of Array.isArray(message) ? message : [message]) {
      if (!("method" in item)) {
        const id = (item as JsonRpcResponse).id;
        const settle = id === null ? undefined : this.pending.get(id);
        if (id !== null) this.pending.delete(id);
        settle?.(item as JsonRpcResponse);
      } else if ("id" in item && item.id !== undefined) {
        void this.answer(item.id, item.method, (item.params ?? {}) as Params);
      } else {
        this.options.onNotification({ method: item.method, params: (item.params ?? {}) as Params });
      }
    }
  }

  /** Answers a request of the server's (elicitation, sampling, roots, ping). */
  private async answer(id: JsonRpcId, method: string, params: Params): Promise<void> {
    const { answers } = this.options;
    if (method === "ping") {
      this.toServer({ jsonrpc: "2.0", id, result: {} });
      return;
    }
    if (!answers.has(method)) {
      this.toServer({
        jsonrpc: "2.0",
        id,
        error: { code: -32601, message: `Method not found: ${method}` },
      });
      return;
    }
    try {
      this.toServer({ jsonrpc: "2.0", id, result: await answers.answer(method, params) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.toServer({ jsonrpc: "2.0", id, error: { code: -32603, message } });
    }
  }
}
