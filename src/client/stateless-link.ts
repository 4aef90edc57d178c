import { onAbort } from "../define/on-abort.js";
import {
  encodeMessage,
  isRequest,
  type JsonRpcNotification,
  type JsonRpcResponse,
  parseMessage,
} from "../jsonrpc/index.js";
import { META } from "../protocol/meta.js";
import type { Implementation, LoggingLevel, ServerCapabilities } from "../protocol/types.js";
import { STATELESS_VERSION } from "../protocol/versions.js";
import type { McpServer } from "../server/server.js";
import { type InputRequest, InputRequiredError, RequestError } from "./errors.js";
import {
  abortReason,
  CLOSED_BEFORE_ANSWER,
  CLOSED_BEFORE_SENT,
  type Link,
  type LinkOptions,
  type Params,
  resultOf,
  type ServerIdentity,
  type ServerNotification,
} from "./link.js";

/** What a `subscriptions/listen` stream delivers (the 2026-07-28 SubscriptionFilter). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** The tasks whose changes of status to deliver (`notifications/tasks`). */
  taskIds?: string[];
}

/** An open `subscriptions/listen` stream. */
export interface Subscription {
  /** What the server agreed to deliver, from its acknowledgement. */
  readonly honoredFilter: SubscriptionFilter;
  close(): Promise<void>;
  /** How it ended: closed here, ended by the server with its result, or cut without one. */
  readonly closed: Promise<"local" | "graceful" | "remote">;
}

/**
 * 2026-07-28 requests to a server in this process, each through the server's
 * own `serveRequest`, encoded and parsed as on the wire, with the protocol
 * fields in its `_meta`. A result that asks for input (`input_required`) is
 * answered by the client's responders and the request sent again with the
 * answers, round after round, until it completes.
 */
export class StatelessLink implements Link {
  private readonly closing = new AbortController();
  private nextId = 0;
  private identity: ServerIdentity | undefined;
  /** The least severe log message each request asks for; none when undefined. */
  logLevel: LoggingLevel | undefined;

  private constructor(
    private readonly target: McpServer,
    private readonly options: LinkOptions,
  ) {
    this.logLevel = options.logLevel;
  }

  /** Asks the server what it offers (`server/discover`), as a 2026-07-28 client connects. */
  static async open(server: McpServer, options: LinkOptions): Promise<StatelessLink> {
    const link = new StatelessLink(server, options);
    const discovered = await link.request("server/discover", {});
    const meta = (discovered._meta ?? {}) as Params;
    link.identity = {
      protocolVersion: STATELESS_VERSION,
      capabilities: (discovered.capabilities ?? {}) as ServerCapabilities,
      serverInfo: meta[META.serverInfo] as Implementation | undefined,
      instructions: discovered.instructions as string | undefined,
    };
    return link;
  }

  /** Whether close() was called: no request is sent any more. */
  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  get server(): ServerIdentity {
    if (!this.identity) throw new Error("The client has not discovered the server yet");
    return this.identity;
  }

  async request(method: string, params: Params, signal?: AbortSignal): Promise<Params> {
    let retry: Params = {};
    // The server caps the rounds of one request, so this ends.
    for (;;) {
      const result = await this.send(method, { ...params, ...retry }, signal);
      if (result.resultType !== "input_required") return result;
      const inputResponses = await this.unlessStopped(
        this.answer((result.inputRequests ?? {}) as Record<string, InputRequest>),
        signal,
      );
      retry = { inputResponses };
      if (result.requestState !== undefined) retry.requestState = result.requestState;
    }
  }

  /**
   * The responders' answers to what a request or a task asks, by key; an
   * InputRequiredError naming what no responder answers.
   */
  async answer(requests: Record<string, InputRequest>): Promise<Params> {
    const { answers } = this.options;
    const unanswered = Object.entries(requests).filter(([, asked]) => !answers.has(asked.method));
    if (unanswered.length > 0) throw new InputRequiredError(Object.fromEntries(unanswered));
    const inputResponses: Params = {};
    for (const [key, asked] of Object.entries(requests)) {
      inputResponses[key] = await answers.answer(asked.method, asked.params ?? {});
    }
    return inputResponses;
  }

  /**
   * What `answering` gives, unless the caller's `signal` aborts or the client
   * closes first: a request waiting on its responders stops as one waiting on
   * the server does.
   */
  private unlessStopped<T>(answering: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const stop = signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
    return new Promise<T>((resolve, reject) => {
      const stopWaiting = onAbort(stop, () =>
        reject(abortReason(signal?.aborted ? signal : this.closing.signal, CLOSED_BEFORE_ANSWER)),
      );
      answering.then(resolve, reject).finally(stopWaiting);
    });
  }

  /** Opens a listen stream; resolves once the server acknowledged it. */
  async listen(
    filter: SubscriptionFilter,
    deliver: (notification: ServerNotification) => void = this.options.onNotification,
  ): Promise<Subscription> {
    const stop = new AbortController();
    let acknowledge: (filter: SubscriptionFilter) => void = () => {};
    const acknowledged = new Promise<SubscriptionFilter>((resolve) => {
      acknowledge = resolve;
    });
    let isAcknowledged = false;
    // The acknowledgement comes first, and may come before serve() returns.
    const served = this.serve(
      "subscriptions/listen",
      { notifications: filter },
      stop.signal,
      (n) => {
        if (isAcknowledged || n.method !== "notifications/subscriptions/acknowledged") deliver(n);
        else {
          isAcknowledged = true;
          acknowledge((n.params.notifications ?? {}) as SubscriptionFilter);
        }
      },
    );
    const closed = served.then(
      (response) =>
        response !== undefined
          ? ("graceful" as const)
          : stop.signal.aborted || this.closing.signal.aborted
            ? ("local" as const)
            : ("remote" as const),
      () => "remote" as const,
    );
    // Refused before it was acknowledged: a filter it cannot read, the memory budget.
    const refused = served.then((response) => {
      if (response === undefined) throw abortReason(this.closing.signal, CLOSED_BEFORE_ANSWER);
      resultOf(decode(response) as JsonRpcResponse);
      throw new Error("The server ended subscriptions/listen before it acknowledged it");
    });
    refused.catch(() => {});
    const honoredFilter = await Promise.race([acknowledged, refused]);
    return {
      honoredFilter,
      async close() {
        stop.abort(new Error("The client closed the subscription"));
        await closed;
      },
      closed,
    };
  }

  async close(): Promise<void> {
    this.closing.abort(new Error(CLOSED_BEFORE_ANSWER));
  }

  private async send(method: string, params: Params, signal?: AbortSignal): Promise<Params> {
    const response = await this.serve(method, params, signal, this.options.onNotification);
    if (response === undefined) {
      throw abortReason(signal?.aborted ? signal : this.closing.signal, CLOSED_BEFORE_ANSWER);
    }
    return resultOf(decode(response) as JsonRpcResponse);
  }

  /** One request through the server's `serveRequest`: undefined when it was cancelled. */
  private serve(
    method: string,
    params: Params,
    signal: AbortSignal | undefined,
    deliver: (notification: ServerNotification) => void,
  ): Promise<JsonRpcResponse | undefined> {
    if (this.closed) return Promise.reject(new Error(CLOSED_BEFORE_SENT));
    const _meta = {
      [META.protocolVersion]: STATELESS_VERSION,
      [META.clientInfo]: this.options.clientInfo,
      [META.clientCapabilities]: this.options.capabilities,
      ...(this.logLevel !== undefined && { [META.logLevel]: this.logLevel }),
      ...(params._meta as Params | undefined),
    };
    const id = ++this.nextId;
    const parsed = parseMessage(
      JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta } }),
    );
    if (parsed.kind !== "single" || !isRequest(parsed.message)) {
      const error = parsed.kind === "invalid" ? parsed.error.error : undefined;
      return Promise.reject(
        new RequestError(error?.code ?? -32600, error?.message ?? "Invalid Request", error?.data),
      );
    }
    return this.target.serveRequest(parsed.message, {
      notify: (notification) => {
        const { params: sent = {} } = decode(notification) as JsonRpcNotification;
        deliver({ method: notification.method, params: sent as Params });
      },
      signal: signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal,
    });
  }
}

/** A message as the wire carries it: encoded, then parsed by the receiver. */
function decode(message: JsonRpcResponse | JsonRpcNotification): unknown {
  return JSON.parse(encodeMessage(message));
}
