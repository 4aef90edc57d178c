import type { McpServer } from "../../server/index.js";
import type { EventRetention } from "../../server/replicas/session-log.js";
import type { ResolvedHttpOptions } from "../../settings/http-options.js";
import { CallerCounts, heldLimitRefusal } from "./held-limits.js";
import { ReplayPool } from "./replay-pool.js";
import type { Refusal } from "./security.js";
import { HttpSessionTransport } from "./session-transport.js";

/** How long a shared log keeps a session's events when sessions never idle out. */
const DAY_MS = 24 * 60 * 60_000;

/**
 * The live HTTP sessions of one endpoint, by Mcp-Session-Id. One timer, not one
 * per session, sends SSE keep-alives and ends sessions left idle.
 */
export class SessionTable {
  private readonly sessions = new Map<string, HttpSessionTransport>();
  /** The sessions each caller opened, for maxSessionsPerCaller. */
  private readonly perCaller = new CallerCounts();
  /** The events every session keeps for replay, bounded all together. */
  private readonly replay: ReplayPool;
  private readonly timer: NodeJS.Timeout | undefined;
  private lastKeepAlive = Date.now();
  /** What a log shared by replicas keeps of each session's events. */
  private readonly retention: EventRetention;

  constructor(
    private readonly server: McpServer,
    private readonly options: ResolvedHttpOptions,
  ) {
    this.replay = new ReplayPool(options.replayMaxTotalBytes);
    this.retention = {
      maxEvents: options.replayMaxEvents,
      ttlMs: options.sessionIdleTimeoutMs > 0 ? options.sessionIdleTimeoutMs : DAY_MS,
    };
    const { keepAliveMs, sessionIdleTimeoutMs } = options;
    const sweepMs =
      sessionIdleTimeoutMs > 0 ? Math.min(Math.max(sessionIdleTimeoutMs / 4, 50), 60_000) : 0;
    const tickMs = Math.min(
      keepAliveMs || Number.POSITIVE_INFINITY,
      sweepMs || Number.POSITIVE_INFINITY,
    );
    if (Number.isFinite(tickMs)) {
      this.timer = setInterval(() => this.tick(), tickMs);
      this.timer.unref();
    }
  }

  get(id: string): HttpSessionTransport | undefined {
    return this.sessions.get(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Why `owner` may not open one more session (maxSessionsPerCaller, maxSessions), if it may not. */
  refusal(owner: string | undefined): Refusal | undefined {
    return heldLimitRefusal("sessions", this.sessions.size, this.perCaller.of(owner), this.options);
  }

  values(): IterableIterator<HttpSessionTransport> {
    return this.sessions.values();
  }

  /** A new session, bound to `owner` (the caller that opened it; see callerKey). */
  create(owner: string | undefined): HttpSessionTransport {
    const transport = new HttpSessionTransport(this.options, this.replay, owner, (closed) => {
      if (this.sessions.delete(closed.sessionId)) this.perCaller.remove(owner);
    });
    const session = this.server.openSession(transport);
    transport.start(session);
    transport.bind(session, this.server.replicas?.sessions, this.retention);
    this.sessions.set(transport.sessionId, transport);
    this.perCaller.add(owner);
    return transport;
  }

  private tick(): void {
    const now = Date.now();
    const { keepAliveMs, sessionIdleTimeoutMs } = this.options;
    const keepAlive = keepAliveMs > 0 && now - this.lastKeepAlive >= keepAliveMs;
    if (keepAlive) this.lastKeepAlive = now;
    for (const transport of [...this.sessions.values()]) {
      if (keepAlive) transport.keepAlive();
      if (
        sessionIdleTimeoutMs > 0 &&
        now - transport.lastActivity >= sessionIdleTimeoutMs &&
        !transport.connected
      ) {
        void transport.close();
      }
    }
  }

  /** Ends every session: open streams close, requests in flight get an error. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.sessions.values()].map((transport) => transport.close()));
  }
}
