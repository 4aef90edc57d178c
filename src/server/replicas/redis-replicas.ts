import { randomUUID } from "node:crypto";
import { LazyPackage } from "../../define/lazy-package.js";
import { thrownMessage } from "../../define/thrown.js";
import { RedisChangeBus } from "./redis-change-bus.js";
import { RedisKeys } from "./redis-keys.js";
import { RedisLink } from "./redis-link.js";
import type { ResolvedRedisOptions } from "./redis-options.js";
import { RedisSessionLog } from "./redis-session-log.js";
import { RedisTaskStore } from "./redis-task-store.js";

/** node-redis's client, loaded only by a server that uses Redis (it takes a while to load). */
const REDIS = new LazyPackage<typeof import("@redis/client")>("@redis/client");

/** How long a starting replica waits for Redis before it serves what needs none. */
const CONNECT_WAIT_MS = 5000;

/**
 * What replicas of one server share through Redis: tasks, resource updates
 * announced by code, and the events of 2025 sessions' streams. Each replica
 * has an id, and a lease it renews while it lives; on each renewal it also
 * sweeps the tasks (expiries, tasks of replicas whose lease lapsed) and ends
 * the streams it carries for replicas that stopped.
 */
export class RedisReplicas {
  readonly id = randomUUID();
  readonly link: RedisLink;
  readonly tasks: RedisTaskStore;
  readonly bus: RedisChangeBus;
  readonly sessions: RedisSessionLog;
  private readonly keys: RedisKeys;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private listening: Promise<unknown> | undefined;

  constructor(
    readonly options: ResolvedRedisOptions,
    maxTasks: number,
    private readonly warn: (message: string) => void,
  ) {
    this.keys = new RedisKeys(options.prefix);
    this.link = new RedisLink(options.url, warn, REDIS.get());
    this.tasks = new RedisTaskStore(this.link, this.keys, this.id, options.leaseMs, maxTasks, warn);
    this.bus = new RedisChangeBus(this.link, this.keys.resourceUpdates, this.id, warn);
    this.sessions = new RedisSessionLog(this.link, this.keys, this.id, options.leaseMs, warn);
  }

  /** Connects, listens to the other replicas, and renews the lease from now on. */
  start(): void {
    this.link.connect();
    // Subscriptions wait for the connection, however long it takes.
    this.listening = Promise.allSettled([this.tasks.listen(), this.bus.listen()]);
    this.beating = this.beat();
    this.timer = setInterval(() => {
      this.beating = this.beat();
    }, this.options.leaseMs / 3);
    this.timer.unref();
  }

  /**
   * Resolves once this replica hears the others and holds its lease, or once
   * it has waited a few seconds for Redis: it then serves what needs none, and
   * connects when it can.
   */
  async ready(): Promise<void> {
    await this.link.connected(CONNECT_WAIT_MS);
    if (!this.link.reachable) return;
    await this.listening;
    await this.beat();
  }

  /** Gives up the lease (the tasks this replica ran have been left as they ended) and disconnects. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    this.sessions.close();
    this.tasks.close();
    if (this.link.reachable) {
      await this.link
        .command("Giving up the lease", ["DEL", this.keys.lease(this.id)])
        .catch(() => {
          // It lapses by itself.
        });
    }
    await this.link.close();
  }

  private async beat(): Promise<void> {
    if (!this.link.reachable) return;
    const { leaseMs } = this.options;
    try {
      await this.link.command("Renewing this replica's lease", [
        "SET",
        this.keys.lease(this.id),
        this.id,
        "PX",
        String(leaseMs),
      ]);
      await this.tasks.sweep();
      await this.sessions.endOrphans();
    } catch (error) {
      if (!this.link.isOutage(error))
        this.warn(`renewing the lease in Redis: ${thrownMessage(error)}`);
    }
  }
}
