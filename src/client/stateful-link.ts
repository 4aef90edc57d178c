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
import type { MessageReceiver, SendOptions, Transport } from "../server/transport.js";
import { InputRequiredError } from "./errors.js";
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
  /** The client's requests the server has not answered: how each ends, answered or given up. */
  private readonly pending = new Map<
    JsonRpcId,
    { answered(response: JsonRpcResponse): void; giveUp(error: Error): void }
  >();
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

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (this.closed) return;
    const text = Array.isArray(message) ? encodeBatch(message) : encodeMessage(message);
    const related = options?.relatedRequestId;
    queueMicrotask(() =>
      this.fromServer(JSON.parse(text) as JsonRpcMessage | JsonRpcMessage[], related),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.receiver?.closed();
    for (const { answered } of this.pending.values()) {
      answered({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: CLOSED_BEFORE_ANSWER },
      });
    }
    this.pending.clear();
  }

  // The client's side.

  request(method: string, params: Params, signal?: AbortSignal): Promise<Params> {
    if (this.closed) return Promise.reject(new Error(CLOSED_BEFORE_SENT));
    if (signal?.aborted) return Promise.reject(abortReason(signal, "The request was aborted"));
    const id = ++this.nextId;
    return new Promise<Params>((resolve, reject) => {
      // The client stops waiting (aborted, or what the server asks for it has no
      // answer here): the server is told, so the handler's signal aborts.
      const giveUp = (error: Error) => {
        signal?.removeEventListener("abort", aborted);
        this.pending.delete(id);
        this.toServer({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason: error.message },
        });
        reject(error);
      };
      const aborted = () => giveUp(abortReason(signal, "The request was aborted"));
      signal?.addEventListener("abort", aborted, { once: true });
      const answered = (response: JsonRpcResponse) => {
        signal?.removeEventListener("abort", aborted);
        if (response.id === null) reject(new Error(CLOSED_BEFORE_ANSWER));
        else {
          try {
            resolve(resultOf(response));
          } catch (error) {
            reject(error);
          }
        }
      };
      this.pending.set(id, { answered, giveUp });
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

  /** `related`: the client's request a request of the server's was sent for, if any. */
  private fromServer(message: JsonRpcMessage | JsonRpcMessage[], related?: JsonRpcId): void {
    if (this.closed) return;
    for (const item of Array.isArray(message) ? message : [message]) {
      if (!("method" in item)) {
        const id = (item as JsonRpcResponse).id;
        const waiting = id === null ? undefined : this.pending.get(id);
        if (id !== null) this.pending.delete(id);
        waiting?.answered(item as JsonRpcResponse);
      } else if ("id" in item && item.id !== undefined) {
        void this.answer(item.id, item.method, (item.params ?? {}) as Params, related);
      } else {
        this.options.onNotification({ method: item.method, params: (item.params ?? {}) as Params });
      }
    }
  }

  /**
   * Answers a request of the server's (elicitation, sampling, roots, ping).
   * One no responder answers fails the client's request it was sent for with
   * an InputRequiredError, as on 2026-07-28, and cancels it; the server cancels
   * its ask with it. One sent for no request of the client's is refused, -32601.
   */
  private async answer(
    id: JsonRpcId,
    method: string,
    params: Params,
    related: JsonRpcId | undefined,
  ): Promise<void> {
    const { answers } = this.options;
    if (method === "ping") {
      this.toServer({ jsonrpc: "2.0", id, result: {} });
      return;
    }
    if (!answers.has(method)) {
      const unanswered = new InputRequiredError({ [String(id)]: { method, params } });
      const waiting = related === undefined ? undefined : this.pending.get(related);
      if (waiting) waiting.giveUp(unanswered);
      else
        this.toServer({ jsonrpc: "2.0", id, error: { code: -32601, message: unanswered.message } });
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
