import type { AuthInfo } from "../define/auth.js";
import { givenValue } from "../define/given-value.js";
import { defineMiddleware } from "../define/middleware.js";
import { onAbort } from "../define/on-abort.js";
import { thrownMessage } from "../define/thrown.js";
import { timeoutProblem } from "../define/timeout.js";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../jsonrpc/index.js";
import type {
  Implementation,
  JsonObject,
  LoggingLevel,
  ServerCapabilities,
} from "../protocol/types.js";
import type { Definition } from "../registry/definition.js";
import { Registry } from "../registry/registry.js";
import {
  type AnnouncedKind,
  checkExtensions,
  type ListedKind,
  offeredCapabilities,
} from "./capabilities.js";
import { type ChangeBus, InProcessChangeBus } from "./change-bus.js";
import { ChangeNotifier } from "./change-notifier.js";
import { Closing } from "./closing.js";
import { Connection } from "./connection.js";
import type { Engine } from "./engine.js";
import type { ClientChannel } from "./env.js";
import { InFlight } from "./in-flight.js";
import type { InputRoundLimits } from "./input-rounds/input-round.js";
import { RequestStateSigner, STATE_KEY_ENV } from "./input-rounds/request-state.js";
import { ListCache } from "./list-cache.js";
import { heapQuarter, MemoryBudget } from "./memory-budget.js";
import { type LogMessage, logParams, Notices } from "./notices.js";
import type { Params } from "./params.js";
import { resolveRedisOptions } from "./replicas/redis-options.js";
import { RedisReplicas } from "./replicas/redis-replicas.js";
import { ResourceWatchers } from "./resource-watchers.js";
import type { InputRoundOptions, ServerOptions } from "./server-options.js";
import { Session } from "./session.js";
import type { CacheHints } from "./stateless/result.js";
import { serveStateless } from "./stateless/serve.js";
import { DEFAULT_MAX_TASKS, TaskService } from "./tasks/tasks.js";
import type { Transport } from "./transport.js";

export type { AnnouncedKind, InputRoundOptions, ListedKind, ServerOptions };

const CODE_SOURCE = "<code>";

/**
 * Above the official SDK client's own 60-second request timeout (which
 * cancels, and so aborts `ctx.signal`, first), and long enough for a person
 * to answer `ctx.elicit` in a 2025 session; it stops what nothing else would.
 */
const DEFAULT_CALL_TIMEOUT_MS = 5 * 60_000;

/**
 * Four times the HTTP request body limit: room for a 12 MiB file or image,
 * base64 in a result, far beyond what a model reads as text, and far below
 * the runaway result (hundreds of megabytes) it exists to stop.
 */
const DEFAULT_MAX_RESULT_BYTES = 16 * 1024 * 1024;

/** An MCP server: a registry of definitions served to any number of sessions. */
export class McpServer implements Engine {
  readonly registry = new Registry();
  readonly lists = new ListCache(this.registry);
  readonly pageSize: number;
  readonly defaultLogLevel: LoggingLevel;
  readonly instructions: string | undefined;
  readonly maxSubscriptions: number;
  readonly memory: MemoryBudget;
  readonly inputRounds: InputRoundLimits;
  readonly tasks: TaskService;
  readonly callTimeoutMs: number;
  readonly maxResultBytes: number;
  private readonly cacheTtlMs: number;
  private readonly extensions: Record<string, JsonObject> | undefined;
  private readonly closeController = new AbortController();
  /** What long-lived requests do at shutdown (a Worker's requests must not touch closeController). */
  private readonly shutting = new Closing();
  private closed: Promise<void> | undefined;
  private readonly info: Implementation;
  private readonly announce: Set<AnnouncedKind>;
  private readonly standing = new Notices();
  readonly bus: ChangeBus;
  /** What this server shares with its replicas through Redis, when it does. @internal */
  readonly replicas: RedisReplicas | undefined;
  private readonly sessions = new Set<Session>();
  private readonly notifier: ChangeNotifier;
  private readonly watchers: ResourceWatchers;
  private readonly warnSink: (message: string) => void;
  private codeDefinitions: Definition[] = [];
  /** Capabilities per protocol revision, until the registry changes. */
  private readonly offered = new Map<string, ServerCapabilities>();

  constructor(options: ServerOptions) {
    const {
      instructions,
      pageSize,
      announce,
      logLevel,
      warn,
      bus,
      redis,
      cacheTtlMs,
      maxSubscriptions,
      memoryBudgetBytes,
      extensions,
      inputRounds,
      tasks,
      callTimeoutMs,
      maxResultBytes,
      middleware,
      ...info
    } = options;
    if (typeof info.name !== "string" || info.name === "") {
      throw new TypeError(
        'createServer needs a "name", e.g. createServer({ name: "my-server", version: "1.0.0" })',
      );
    }
    if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0)) {
      throw new TypeError(`pageSize must be a positive integer, got ${givenValue(pageSize)}`);
    }
    this.extensions = checkExtensions(extensions);
    this.cacheTtlMs = count(cacheTtlMs, 0, "cacheTtlMs");
    this.maxSubscriptions = count(maxSubscriptions, 1000, "maxSubscriptions");
    this.memory = new MemoryBudget(count(memoryBudgetBytes, heapQuarter(), "memoryBudgetBytes"));
    this.inputRounds = {
      signer: new RequestStateSigner(
        inputRounds?.key ?? process.env[STATE_KEY_ENV],
        count(inputRounds?.ttlMs, 15 * 60_000, "inputRounds.ttlMs"),
      ),
      maxRounds: atLeastOne(inputRounds?.maxRounds, 10, "inputRounds.maxRounds"),
    };
    const badTimeout = timeoutProblem(callTimeoutMs);
    if (badTimeout) throw new TypeError(`callTimeoutMs ${badTimeout}`);
    this.callTimeoutMs = callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.maxResultBytes = count(maxResultBytes, DEFAULT_MAX_RESULT_BYTES, "maxResultBytes");
    this.info = { ...info, version: info.version ?? "0.0.0" };
    this.instructions = instructions;
    this.pageSize = pageSize ?? 100;
    this.announce = new Set(announce ?? []);
    this.defaultLogLevel = logLevel ?? "debug";
    this.warnSink = warn ?? ((message) => process.stderr.write(`mcp-dir: ${message}\n`));
    this.replicas =
      redis === undefined
        ? undefined
        : new RedisReplicas(
            resolveRedisOptions(redis, info.name),
            tasks?.maxTasks ?? DEFAULT_MAX_TASKS,
            (message) => this.warn(message),
          );
    this.tasks = new TaskService(
      {
        ...tasks,
        ...(tasks?.store === undefined && this.replicas && { store: this.replicas.tasks }),
      },
      this.memory,
    );
    this.bus = bus ?? this.replicas?.bus ?? new InProcessChangeBus();
    this.notifier = new ChangeNotifier(this.bus);
    this.watchers = new ResourceWatchers(
      (uri) => this.resourceUpdated(uri),
      (message) => this.warn(message),
    );
    if (middleware) {
      this.registry.useMiddleware(
        middleware.map((given) => (typeof given === "function" ? defineMiddleware(given) : given)),
      );
    }
    this.registry.onChange((change) => {
      this.offered.clear();
      this.notifier.add(change);
      this.watchers.sync(this.registry);
    });
    // Last: nothing above may throw once a connection is open.
    this.replicas?.start();
  }

  /**
   * Resolves once what this server shares with its replicas can be reached
   * (at once without Redis), or after a few seconds of trying: it then serves
   * what needs no Redis, and connects when it can.
   */
  async ready(): Promise<void> {
    await this.replicas?.ready();
  }

  /** Adds definitions made in code (defineTool, definePrompt, defineResource). */
  add(...definitions: Definition[]): this {
    const next = [...this.codeDefinitions, ...definitions];
    this.registry.replaceSource(
      CODE_SOURCE,
      next.map((definition) => ({ definition })),
    );
    this.codeDefinitions = next;
    return this;
  }

  /**
   * Serves one client over a message transport (stdio, or one you write): the
   * first exchange decides whether it is a 2025 session or 2026-07-28
   * stateless requests. It ends when the transport closes.
   */
  connect(transport: Transport): Connection {
    const connection = new Connection(this, transport, (t) => this.openSession(t));
    transport.start(connection);
    return connection;
  }

  /** A 2025 session over `transport`, which the caller has started or will start with it. @internal */
  openSession(transport: Transport): Session {
    // Changes made before this session are told to the sessions open then, not to it.
    this.flushChanges();
    const session = new Session(this, transport, (ended) => {
      this.sessions.delete(ended);
      this.tasks.sessionEnded(ended.id).catch((error: unknown) => {
        this.warn(
          `the tasks of ended session ${ended.id} were not cancelled: ${thrownMessage(error)}`,
        );
      });
    });
    this.sessions.add(session);
    return session;
  }

  /**
   * Serves one 2026-07-28 request on its own (what an HTTP POST carries):
   * `notify` carries its progress and log messages, aborting `signal` cancels
   * it, aborting `closing` ends a long-lived one (a listen stream) with its
   * graceful result. Resolves to the response, or undefined when it was
   * cancelled; never rejects (a failure of the server's own is a -32603 response).
   * `auth`: the caller your transport verified, checked against each
   * definition's scopes and given to handlers as `ctx.auth`.
   */
  serveRequest(
    request: JsonRpcRequest,
    options: {
      notify(message: JsonRpcNotification): void;
      signal?: AbortSignal;
      closing?: AbortSignal;
      auth?: AuthInfo;
    },
  ): Promise<JsonRpcResponse | undefined> {
    const inFlight = new InFlight();
    const { signal } = options;
    // The caller may pass one signal for many requests: each stops waiting on it when answered.
    const stop = signal
      ? onAbort(signal, () => inFlight.cancel("The client cancelled the request"))
      : undefined;
    const channel = {
      notify: (method: string, params: Params) =>
        options.notify({ jsonrpc: "2.0", method, params }),
    };
    const served = this.serveStateless(request, channel, inFlight, options.closing, options.auth);
    return stop ? served.finally(stop) : served;
  }

  /** `serveRequest` for transports, which keep the request's InFlight to cancel it. @internal */
  serveStateless(
    request: JsonRpcRequest,
    channel: ClientChannel,
    inFlight: InFlight,
    closing?: AbortSignal,
    auth?: AuthInfo,
  ): Promise<JsonRpcResponse | undefined> {
    return serveStateless(this, request, channel, inFlight, closing, auth);
  }

  /**
   * Tells the subscribers of `uri` (2025 sessions that subscribed, 2026 listen
   * streams that name it) that it changed: for code that changes a resource
   * outside a request. Several calls in one turn of the event loop send one
   * notification per URI.
   */
  resourceUpdated(uri: string): void {
    this.notifier.announce(uri);
  }

  /**
   * Publishes the changes of this turn of the event loop now: a session or
   * in-process client about to open must not hear of changes made before it,
   * as its client lists what they made. @internal
   */
  flushChanges(): void {
    this.notifier.flush();
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  serverInfo(): Implementation {
    return this.info;
  }

  /** Aborted when the server shuts down. */
  get closing(): AbortSignal {
    return this.closeController.signal;
  }

  atClose(callback: () => void): () => void {
    return this.shutting.atClose(callback);
  }

  cacheHints(kind: "list" | "discover" | "read", varies = false): CacheHints {
    // What a resource read returns may depend on who asks; a list does when the
    // caller's scopes or views decide it; discover never does.
    if (kind === "read") return { ttlMs: 0, cacheScope: "private" };
    return { ttlMs: this.cacheTtlMs, cacheScope: varies ? "private" : "public" };
  }

  capabilities(version: string): ServerCapabilities {
    let offered = this.offered.get(version);
    if (offered === undefined) {
      offered = offeredCapabilities(this.registry, this.announce, this.extensions, version);
      this.offered.set(version, offered);
    }
    return offered;
  }

  warn(message: string): void {
    this.warnSink(message);
  }

  /** Sends a log notification to every session whose level lets it through. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const params = logParams({ level, logger, data });
    for (const session of this.sessions) {
      if (session.initialized && session.wantsLog(level)) {
        session.notify("notifications/message", params);
      }
    }
  }

  /**
   * Tells every client of something about the server as a whole that stands
   * until it is withdrawn (`dev`: a file that fails to load), as log messages:
   * each 2025 session at its log level, at once, or once it is initialized
   * (`notifications/initialized`) for a session that was not yet; each
   * 2026-07-28 request that asks for log messages at their level, with its
   * response, for as long as they stand (the revision sends log messages only
   * with a request, never on a listen stream). Setting `key` again replaces
   * its messages (and tells them); none withdraws them.
   */
  setNotice(key: string, messages: readonly LogMessage[] | undefined): void {
    this.standing.set(key, messages);
    for (const session of this.sessions) {
      if (session.hearsNotices) for (const message of messages ?? []) session.log(message);
    }
  }

  /** The notices that stand now, for the 2026-07-28 requests that ask for log messages. */
  notices(): readonly LogMessage[] {
    return this.standing.all;
  }

  /**
   * Announces these kinds even while none is registered, so that clients
   * that connect from now on expect their lists to change (a watched
   * directory may gain a folder); "views" offers the MCP Apps extension,
   * "tasks" tasks.
   */
  announceKinds(kinds: readonly AnnouncedKind[]): void {
    for (const kind of kinds) this.announce.add(kind);
    this.offered.clear();
  }

  /**
   * Ends every session, resource watch and task run (each such task is left
   * failed); listen streams end with their graceful result. With Redis, the
   * replica then gives up its lease and disconnects. Calls after the first
   * resolve with it.
   */
  close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    this.closeController.abort();
    this.shutting.close();
    this.watchers.stopAll();
    await Promise.all([
      this.tasks.close(),
      ...[...this.sessions].map((session) => session.close()),
    ]);
    await this.replicas?.close();
  }
}

function count(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value >= 0)) {
    throw new TypeError(`${name} must be a whole number of 0 or more, got ${givenValue(value)}`);
  }
  return value;
}

/**
 * A limit where 0 would forbid the thing outright rather than mean "no limit"
 * (as it does for callTimeoutMs and maxResultBytes): refused, not taken.
 */
function atLeastOne(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value >= 1)) {
    throw new TypeError(`${name} must be a whole number of 1 or more, got ${givenValue(value)}`);
  }
  return value;
}

export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}
