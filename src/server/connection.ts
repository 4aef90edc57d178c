import type { AuthInfo } from "../define/auth.js";
import {
  ErrorCode,
  failure,
  idInUseMessage,
  isNotification,
  isRequest,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Parsed,
} from "../jsonrpc/index.js";
import { claimedVersion } from "../protocol/meta.js";
import { isStatelessVersion } from "../protocol/versions.js";
import type { Engine } from "./engine.js";
import { eraOf } from "./era.js";
import { claimRefused, initializeRefused } from "./fixed-era.js";
import { InFlight } from "./in-flight.js";
import type { Params } from "./params.js";
import { PendingReplies } from "./pending-replies.js";
import { reportServerFault } from "./server-fault.js";
import type { Session } from "./session.js";
import { serveStateless } from "./stateless/serve.js";
import type { MessageReceiver, Transport } from "./transport.js";

/**
 * One client on a message stream (stdio, or any transport a user writes).
 * Its first exchange fixes the era: `initialize` (or any request without a
 * 2026 `_meta` claim) makes it a 2025 session, a request claiming 2026-07-28
 * makes it stateless, served request by request. A `server/discover` probe,
 * or a request claiming a version not served, is answered without fixing
 * anything. A request of the other era is then refused, saying why
 * (`fixed-era.ts`).
 */
export class Connection implements MessageReceiver {
  private session: Session | undefined;
  private stateless = false;
  private readonly inFlight = new Map<JsonRpcId, InFlight>();
  private readonly replies = new PendingReplies();
  /** Aborted when the client's input ends: listen streams end with their result. */
  private readonly inputOver = new AbortController();
  private isClosed = false;

  constructor(
    private readonly engine: Engine,
    private readonly transport: Transport,
    private readonly openSession: (transport: Transport) => Session,
  ) {}

  /** The 2025 session, once the connection has become one. */
  get legacySession(): Session | undefined {
    return this.session;
  }

  receive(parsed: Parsed, auth?: AuthInfo): void {
    const refusal = this.otherEra(parsed);
    if (refusal) {
      this.transport.send(refusal);
    } else if (this.session) {
      this.session.receive(parsed, auth);
    } else if (parsed.kind === "invalid") {
      this.transport.send(parsed.error);
    } else if (parsed.kind === "single" && (this.stateless || eraOf(parsed) === "stateless")) {
      if (!this.stateless && fixesStateless(parsed.message)) this.stateless = true;
      this.serve(parsed.message, auth);
    } else if (this.stateless) {
      this.transport.send(
        failure(
          null,
          ErrorCode.InvalidRequest,
          "Invalid Request: protocol 2026-07-28 takes one message at a time, not a batch",
        ),
      );
    } else {
      this.session = this.openSession(this.transport);
      this.session.receive(parsed, auth);
    }
  }

  /** The refusal of a request of the era this connection's first message did not fix. */
  private otherEra(parsed: Parsed): JsonRpcResponse | undefined {
    if (parsed.kind !== "single" || !isRequest(parsed.message)) return undefined;
    const request = parsed.message;
    if (this.session) {
      const claimed = claimedVersion(request.params);
      const version = this.session.protocolVersion;
      // A claim of the session's own version asks for nothing it does not get.
      return claimed === undefined || claimed === version
        ? undefined
        : claimRefused(request, claimed, version);
    }
    // Only initialize is looked into: every other request of a stateless connection is served.
    return this.stateless &&
      request.method === "initialize" &&
      claimedVersion(request.params) === undefined
      ? initializeRefused(request)
      : undefined;
  }

  private serve(message: JsonRpcMessage, auth: AuthInfo | undefined): void {
    if (isRequest(message)) {
      this.replies.add(this.serveRequest(message, auth), (error) =>
        reportServerFault(this.engine, `sending the response to ${message.method}`, error),
      );
    } else if (isNotification(message)) {
      if (message.method === "notifications/cancelled") {
        const params = (message.params ?? {}) as Params;
        const reason =
          typeof params.reason === "string" ? params.reason : "Cancelled by the client";
        this.inFlight.get(params.requestId as JsonRpcId)?.cancel(reason);
      }
    } else {
      this.engine.warn(
        `ignored a response (id ${JSON.stringify(message.id)}): a 2026-07-28 server sends no requests`,
      );
    }
  }

  private async serveRequest(request: JsonRpcRequest, auth: AuthInfo | undefined): Promise<void> {
    const { id } = request;
    if (this.inFlight.has(id)) {
      this.transport.send(failure(id, ErrorCode.InvalidRequest, idInUseMessage(id)));
      return;
    }
    const inFlight = new InFlight();
    this.inFlight.set(id, inFlight);
    const channel = {
      notify: (method: string, params: Params) => {
        if (!this.isClosed) this.transport.send({ jsonrpc: "2.0", method, params });
      },
      network: this.transport.network,
    };
    try {
      const response = await serveStateless(
        this.engine,
        request,
        channel,
        inFlight,
        this.inputOver.signal,
        auth,
      );
      if (response && !this.isClosed) this.transport.send(response);
    } finally {
      this.inFlight.delete(id);
    }
  }

  async inputEnded(): Promise<void> {
    if (this.session) return this.session.inputEnded();
    this.inputOver.abort();
    await this.replies.settled();
  }

  closed(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.session?.closed();
    for (const inFlight of this.inFlight.values()) inFlight.cancel("The connection closed");
    this.inFlight.clear();
  }
}

/**
 * Whether a message claiming a protocol version makes its connection
 * 2026-07-28's. A server/discover probe does not (dual-era clients probe with
 * it), nor a request claiming a version not served per request, refused with
 * -32022: its client may still initialize, as that refusal says.
 */
function fixesStateless(message: JsonRpcMessage): boolean {
  return (
    isRequest(message) &&
    message.method !== "server/discover" &&
    isStatelessVersion(claimedVersion(message.params))
  );
}
