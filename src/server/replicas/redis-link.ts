import { createHash } from "node:crypto";
import type { ErrorReply, RedisClient as RedisClientClass, RedisClientType } from "@redis/client";
import { thrownMessage } from "../../define/thrown.js";
import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";

type RedisModule = {
  RedisClient: typeof RedisClientClass;
  ErrorReply: typeof ErrorReply;
};
type RedisClient = RedisClientType;

/** A reply Redis can send to a script: what `redis.call` returns, nested. */
export type Reply = string | number | null | Reply[];

/** A Lua script, run by its digest once Redis has it. */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

export function script(source: string): Script {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

/** What the class of a client is made for: no modules, functions or scripts of Redis's, its default RESP. */
const CLIENT_CLASS = {};

/** Waits between attempts to reconnect: quick at first, then twice a second at most. */
const reconnectDelay = (retries: number) => Math.min(50 * 2 ** retries, 500);

/**
 * The connections of one replica to Redis: one for commands, one for
 * pub/sub (a subscribed connection takes no other command). Both reconnect by
 * themselves; while they cannot, commands fail at once (they are not queued
 * for later, so a request is never left hanging) and `unreachable` says why.
 * An outage is told once on stderr when it begins and once when it ends.
 */
export class RedisLink {
  /** The URL without its password: what messages may show. */
  readonly where: string;
  private readonly commands: RedisClient;
  private readonly subscriber: RedisClient;
  private readonly errorReply: typeof ErrorReply;
  /** Why Redis cannot be reached, while it cannot. */
  private down: string | undefined;
  private closed = false;
  private readonly backListeners = new Set<() => void>();
  /** Told each time Redis comes back after an outage (at start too, when it was out of reach). */
  private readonly returnListeners = new Set<() => void>();
  private connecting: Promise<unknown> = Promise.resolve();
  /** When both connections last came up (epoch ms). */
  private up: number | undefined;

  constructor(
    url: string,
    private readonly warn: (message: string) => void,
    redis: RedisModule,
  ) {
    this.where = withoutPassword(url);
    this.errorReply = redis.ErrorReply;
    const socket = { reconnectStrategy: reconnectDelay };
    // createClient(options) makes a client class for its options (each of Redis's
    // commands a method: some 30 ms), kept only while the next has the same: the
    // two clients' options differ. The class depends on no option given here.
    const newClient = redis.RedisClient.factory(CLIENT_CLASS);
    this.commands = newClient({ url, disableOfflineQueue: true, socket });
    // Subscriptions made while it reconnects wait for it, and are made again after each outage.
    this.subscriber = newClient({ url, socket });
    for (const client of [this.commands, this.subscriber]) {
      client.on("error", (error: unknown) => this.lost(error));
      client.on("ready", () => this.found());
    }
  }

  /** Starts connecting; commands fail until `connected` resolves with both connections up. */
  connect(): void {
    this.connecting = Promise.allSettled([this.commands.connect(), this.subscriber.connect()]);
  }

  /** How long (ms) both connections have been up without a break; 0 while either is down. */
  get upFor(): number {
    return this.reachable && this.up !== undefined ? Date.now() - this.up : 0;
  }

  /**
   * Whether a lapsed lease says its replica stopped: only once both
   * connections have been up for a whole lease, since after an outage longer
   * than one every replica's lease has lapsed until its timer renews it.
   */
  lapseMeansStopped(leaseMs: number): boolean {
    return this.upFor >= leaseMs;
  }

  /** True while both connections are up. */
  get reachable(): boolean {
    return this.commands.isReady && this.subscriber.isReady;
  }

  /**
   * Resolves once both connections are up, or after `timeoutMs` however
   * they are (a replica serves what needs no Redis meanwhile).
   */
  async connected(timeoutMs: number): Promise<void> {
    if (this.reachable) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.whenBack().then(done, done);
    });
  }

  /** Resolves once Redis can be reached again (at once when it can); rejects once the link is closed. */
  whenBack(): Promise<void> {
    if (this.closed)
      return Promise.reject(new Error(`The link to Redis at ${this.where} is closed`));
    if (this.reachable) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const listener = () => {
        this.backListeners.delete(listener);
        if (this.closed) reject(new Error(`The link to Redis at ${this.where} is closed`));
        else resolve();
      };
      this.backListeners.add(listener);
    });
  }

  /** Calls `listener` each time Redis can be reached again after an outage; returns what stops it. */
  onReturn(listener: () => void): () => void {
    this.returnListeners.add(listener);
    return () => {
      this.returnListeners.delete(listener);
    };
  }

  /** One command; a failure to reach Redis becomes `unreachable(what)`. */
  async command(what: string, args: readonly string[]): Promise<Reply> {
    try {
      return (await this.commands.sendCommand([...args])) as Reply;
    } catch (error) {
      throw this.failure(what, error);
    }
  }

  /** Runs a script by its digest, sending its source only when Redis does not have it yet. */
  async run(what: string, code: Script, keys: readonly string[], args: readonly string[]) {
    const rest = [String(keys.length), ...keys, ...args];
    try {
      return (await this.commands.sendCommand(["EVALSHA", code.sha, ...rest])) as Reply;
    } catch (error) {
      if (!(error instanceof this.errorReply && error.message.startsWith("NOSCRIPT"))) {
        throw this.failure(what, error);
      }
    }
    try {
      return (await this.commands.sendCommand(["EVAL", code.source, ...rest])) as Reply;
    } catch (error) {
      throw this.failure(what, error);
    }
  }

  /** Listens to a channel; resolves, with what stops listening, once Redis has the subscription. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<() => void> {
    await this.subscriber.subscribe(channel, listener);
    return () => {
      if (this.closed) return;
      this.subscriber.unsubscribe(channel, listener).catch(() => {
        // Gone with the connection: a new one subscribes only to what is still listened to.
      });
    };
  }

  /** Whether `error` says Redis could not be reached (rather than that it refused a command). */
  isOutage(error: unknown): boolean {
    return error instanceof JsonRpcError
      ? error.data !== undefined && (error.data as { redis?: unknown }).redis === this.where
      : !(error instanceof this.errorReply);
  }

  /** The error a request gets when what it needs, `what`, is kept in Redis and Redis is out of reach. */
  unreachable(what: string, cause?: unknown): JsonRpcError {
    const why = this.down ?? (cause === undefined ? "not connected" : thrownMessage(cause));
    return new JsonRpcError(
      ErrorCode.InternalError,
      `${what} needs Redis at ${this.where}, which cannot be reached (${why}); try again shortly: the server reconnects by itself`,
      { redis: this.where },
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A connection never made is given up, not waited for.
    await Promise.all(
      [this.commands, this.subscriber].map((client) =>
        client.isReady ? client.close().catch(() => client.destroy()) : client.destroy(),
      ),
    );
    await this.connecting;
    for (const listener of [...this.backListeners]) listener();
  }

  private failure(what: string, error: unknown): unknown {
    return error instanceof this.errorReply ? error : this.unreachable(what, error);
  }

  private lost(error: unknown): void {
    if (this.closed || this.down !== undefined) return;
    this.down = thrownMessage(error);
    this.warn(
      `Redis at ${this.where} cannot be reached (${this.down}): tasks, resource updates between replicas and 2025 streams resumed on another replica wait for it; reconnecting`,
    );
  }

  private found(): void {
    if (!this.reachable) return;
    this.up = Date.now();
    if (this.down !== undefined) {
      this.down = undefined;
      this.warn(`Redis at ${this.where} is reachable again`);
      for (const listener of [...this.returnListeners]) listener();
    }
    for (const listener of [...this.backListeners]) listener();
  }
}

/** A Redis URL as it may be shown: its password replaced. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.href.replace(/\/$/, "");
  } catch {
    return url;
  }
}
