import { TASKS_EXTENSION } from "../protocol/tasks.js";
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ServerCapabilities,
} from "../protocol/types.js";
import { isStatefulVersion, STATEFUL_VERSIONS, STATELESS_VERSION } from "../protocol/versions.js";
import type { McpServer } from "../server/server.js";
import { CallbackErrors } from "./callback-errors.js";
import type { ClientOptions, ListParams, RequestOptions } from "./client-options.js";
import { notificationWithoutFraming, withoutFraming } from "./framing.js";
import { LegacyTasks } from "./legacy-tasks.js";
import { CLOSED_BEFORE_SENT, type Link, type Params, type ServerNotification } from "./link.js";
import { NotificationLog } from "./notification-log.js";
import { ResourceStreams } from "./resource-streams.js";
import { Answers, capabilitiesFor } from "./responders.js";
import type {
  CallToolResult,
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Progress,
  ReadResourceResult,
} from "./results.js";
import { StatefulLink } from "./stateful-link.js";
import { StatelessLink, type Subscription, type SubscriptionFilter } from "./stateless-link.js";
import { followTask } from "./task-follower.js";

const CLIENT_INFO: Implementation = { name: "mcp-dir-test-client", version: "1.0.0" };

/** The capabilities with the tasks extension declared, when asked for. */
function withTasks(
  capabilities: ClientCapabilities,
  tasks: boolean | undefined,
): ClientCapabilities {
  if (tasks !== true) return capabilities;
  return {
    ...capabilities,
    extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} },
  };
}

/**
 * A client of a server in this process, in either era, with the official SDK
 * clients' method names and result shapes. No port, no child process: the
 * server's own entries (`connect` for a 2025 session, `serveRequest` for each
 * 2026-07-28 request), every message encoded and parsed as on the wire.
 */
export class InMemoryClient {
  private readonly log = new NotificationLog();
  private readonly callbackErrors = new CallbackErrors();
  private readonly progress = new Map<string, (progress: Progress) => void>();
  private resourceStreams: ResourceStreams | undefined;
  private nextProgressToken = 0;
  private link!: Link;
  private listChanges: Subscription | undefined;
  private legacyTasks: LegacyTasks | undefined;

  private readonly onNotification: ClientOptions["onNotification"];

  protected constructor(options: ClientOptions) {
    this.onNotification = options.onNotification;
  }

  /** Connects to `server`: initializes a 2025 session, or discovers the server (2026-07-28). */
  static async connect(server: McpServer, options: ClientOptions = {}): Promise<InMemoryClient> {
    const client = new InMemoryClient(options);
    await client.open(server, options);
    return client;
  }

  protected async open(server: McpServer, options: ClientOptions): Promise<void> {
    const version = options.protocolVersion ?? STATELESS_VERSION;
    if (version !== STATELESS_VERSION && !isStatefulVersion(version)) {
      throw new TypeError(
        `protocolVersion must be "${STATELESS_VERSION}" or a 2025 revision (${STATEFUL_VERSIONS.join(", ")}), got ${JSON.stringify(version)}`,
      );
    }
    const linkOptions = {
      clientInfo: options.clientInfo ?? CLIENT_INFO,
      capabilities: withTasks(capabilitiesFor(options, options.capabilities), options.tasks),
      answers: new Answers(options),
      logLevel: options.logLevel ?? "debug",
      onNotification: (notification: ServerNotification) => this.receive(notification),
    };
    if (isStatefulVersion(version)) {
      this.link = await StatefulLink.open(server, version, linkOptions);
      // 2025-11-25's server offers tasks in its capabilities; earlier revisions have none.
      if (options.tasks === true && this.link.server.capabilities.tasks !== undefined) {
        this.legacyTasks = new LegacyTasks(this.link, () => this.listTools());
      }
      return;
    }
    const link = await StatelessLink.open(server, linkOptions);
    this.link = link;
    this.resourceStreams = new ResourceStreams((uri) =>
      link.listen({ resourceSubscriptions: [uri] }),
    );
    // As a 2025 session is told of every list change, so is this client; not of those made
    // before it, as a session opening is not (it has listed nothing yet). A listen stream
    // of another client hears them: its client may have listed before them.
    server.flushChanges();
    this.listChanges = await link.listen({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    });
  }

  private receive(received: ServerNotification): void {
    const notification = notificationWithoutFraming(received);
    if (notification.method === "notifications/tools/list_changed") this.legacyTasks?.forget();
    if (notification.method === "notifications/tasks/status") {
      this.legacyTasks?.statusChanged(notification.params);
    }
    if (notification.method === "notifications/progress") {
      const token = notification.params.progressToken;
      const { progress, total, message } = notification.params;
      if (typeof token === "string") {
        this.progress.get(token)?.({
          progress: progress as number,
          ...(total !== undefined && { total: total as number }),
          ...(message !== undefined && { message: message as string }),
        });
      }
    }
    this.log.push(notification);
    this.callbackErrors.call(this.onNotification, notification);
  }

  /** The protocol revision in use. */
  get protocolVersion(): string {
    return this.link.server.protocolVersion;
  }

  getServerCapabilities(): ServerCapabilities {
    return this.link.server.capabilities;
  }

  getServerVersion(): Implementation | undefined {
    return this.link.server.serverInfo;
  }

  getInstructions(): string | undefined {
    return this.link.server.instructions;
  }

  /** Every notification received so far, in order. */
  get notifications(): readonly ServerNotification[] {
    return this.log.received;
  }

  /** The first notification of `method` (and matching `where`), received already or to come. */
  waitForNotification(
    method: string,
    where: (params: Params) => boolean = () => true,
  ): Promise<ServerNotification> {
    return this.log.wait((n) => n.method === method && where(n.params), method);
  }

  /** The next notification of `method` (and matching `where`) to arrive after this call. */
  nextNotification(
    method: string,
    where: (params: Params) => boolean = () => true,
  ): Promise<ServerNotification> {
    return this.log.wait(
      (n) => n.method === method && where(n.params),
      method,
      this.log.received.length,
    );
  }

  /**
   * Sends any request and returns its result as the server sent it (2026-07-28
   * framing included): for what the methods below do not cover.
   */
  async request(
    method: string,
    params: Params = {},
    options: RequestOptions = {},
  ): Promise<Params> {
    const { onprogress, signal } = options;
    if (!onprogress) return this.link.request(method, params, signal);
    const token = `progress-${++this.nextProgressToken}`;
    this.progress.set(token, onprogress);
    const _meta = { ...(params._meta as Params | undefined), progressToken: token };
    try {
      return await this.link.request(method, { ...params, _meta }, signal);
    } finally {
      this.progress.delete(token);
    }
  }

  private async call<T>(method: string, params: Params, options?: RequestOptions): Promise<T> {
    return withoutFraming(await this.request(method, params, options)) as T;
  }

  /** Without a cursor, every page in one list (as the 2026 SDK client does); with one, that page. */
  private async list<T>(
    method: string,
    key: string,
    params: ListParams = {},
    options?: RequestOptions,
  ): Promise<T> {
    if (params.cursor !== undefined) return this.call<T>(method, params, options);
    const first = await this.call<Params>(method, params, options);
    const items = [...(first[key] as unknown[])];
    const seen = new Set<unknown>();
    for (let cursor = first.nextCursor; cursor !== undefined; ) {
      if (seen.has(cursor))
        throw new Error(`${method}: the server gave the cursor ${JSON.stringify(cursor)} twice`);
      seen.add(cursor);
      const page = await this.call<Params>(method, { ...params, cursor }, options);
      items.push(...(page[key] as unknown[]));
      cursor = page.nextCursor;
    }
    const { nextCursor: _, ...rest } = first;
    return { ...rest, [key]: items } as T;
  }

  listTools(params?: ListParams, options?: RequestOptions): Promise<ListToolsResult> {
    return this.list("tools/list", "tools", params, options);
  }

  async callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Params },
    options: RequestOptions = {},
  ): Promise<CallToolResult> {
    const { ontask, signal } = options;
    const legacy = this.legacyTasks;
    if (legacy && (await legacy.runsAsTask(params.name))) {
      const created = await this.request("tools/call", { ...params, task: {} }, options);
      const ended = await legacy.follow(created, (task) => ontask?.(task), signal);
      return ended as unknown as CallToolResult;
    }
    const result = await this.request("tools/call", params, options);
    if (result.resultType !== "task" || !(this.link instanceof StatelessLink)) {
      return withoutFraming(result) as unknown as CallToolResult;
    }
    const ended = await followTask(
      this.link,
      result,
      (task) => ontask?.(task),
      (notification) => this.receive(notification),
      signal,
    );
    return withoutFraming(ended) as unknown as CallToolResult;
  }

  listPrompts(params?: ListParams, options?: RequestOptions): Promise<ListPromptsResult> {
    return this.list("prompts/list", "prompts", params, options);
  }

  getPrompt(
    params: { name: string; arguments?: Record<string, string>; _meta?: Params },
    options?: RequestOptions,
  ): Promise<GetPromptResult> {
    return this.call("prompts/get", params, options);
  }

  listResources(params?: ListParams, options?: RequestOptions): Promise<ListResourcesResult> {
    return this.list("resources/list", "resources", params, options);
  }

  listResourceTemplates(
    params?: ListParams,
    options?: RequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.list("resources/templates/list", "resourceTemplates", params, options);
  }

  readResource(
    params: { uri: string; _meta?: Params },
    options?: RequestOptions,
  ): Promise<ReadResourceResult> {
    return this.call("resources/read", params, options);
  }

  complete(params: CompleteParams, options?: RequestOptions): Promise<CompleteResult> {
    return this.call("completion/complete", params as unknown as Params, options);
  }

  /**
   * Asks for `notifications/resources/updated` when `uri` changes: a 2025
   * session subscribes (`resources/subscribe`); on 2026-07-28, which has no
   * such request, the client opens a listen stream for it.
   */
  async subscribeResource(
    params: { uri: string },
    options: RequestOptions = {},
  ): Promise<Record<string, never>> {
    const { uri } = params;
    if (this.link instanceof StatelessLink) {
      options.signal?.throwIfAborted();
      await this.resourceStreams?.subscribe(uri);
      return {};
    }
    await this.call("resources/subscribe", { uri }, options);
    return {};
  }

  async unsubscribeResource(
    params: { uri: string },
    options: RequestOptions = {},
  ): Promise<Record<string, never>> {
    const { uri } = params;
    if (this.link instanceof StatelessLink) {
      options.signal?.throwIfAborted();
      await this.resourceStreams?.unsubscribe(uri);
      return {};
    }
    await this.call("resources/unsubscribe", { uri }, options);
    return {};
  }

  /**
   * Opens a 2026-07-28 `subscriptions/listen` stream of its own (its
   * notifications are logged too); aborting `signal` closes it, as `close()` does.
   */
  async listen(filter: SubscriptionFilter, options: RequestOptions = {}): Promise<Subscription> {
    if (!(this.link instanceof StatelessLink)) {
      throw new Error(
        `subscriptions/listen is 2026-07-28's; a ${this.protocolVersion} session is told of list changes as they happen, and subscribes to resources with subscribeResource`,
      );
    }
    const { signal } = options;
    signal?.throwIfAborted();
    const subscription = await this.link.listen(filter);
    if (signal) {
      const stop = () => void subscription.close();
      signal.addEventListener("abort", stop, { once: true });
      void subscription.closed.then(() => signal.removeEventListener("abort", stop));
    }
    return subscription;
  }

  /** 2025 sessions: the least severe log message the server sends. 2026-07-28 asks per request. */
  async setLoggingLevel(
    level: LoggingLevel,
    options: RequestOptions = {},
  ): Promise<Record<string, never>> {
    if (this.link instanceof StatelessLink) {
      options.signal?.throwIfAborted();
      if (this.link.closed) throw new Error(CLOSED_BEFORE_SENT);
      this.link.logLevel = level;
    } else await this.call("logging/setLevel", { level }, options);
    return {};
  }

  ping(options?: RequestOptions): Promise<Record<string, never>> {
    return this.call("ping", {}, options);
  }

  /**
   * Ends the session or the listen streams; requests still running are
   * cancelled. Then rejects with what `onNotification` threw first, if it did.
   */
  async close(): Promise<void> {
    await Promise.all([this.resourceStreams?.close(), this.listChanges?.close()]);
    await this.link.close();
    this.log.close();
    this.callbackErrors.throwFirst();
  }
}
