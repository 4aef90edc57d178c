import { JsonRpcError } from "../../jsonrpc/index.js";
import { McpErrorCode } from "../../protocol/errors.js";
import { heldSize, type MemoryBudget } from "../memory-budget.js";
import type { StoredTask, TaskChange, TaskListener, TaskStore } from "./task-store.js";

interface Entry {
  task: StoredTask;
  /** Bytes of the memory budget it holds. */
  held: number;
  expiry: NodeJS.Timeout;
}

/**
 * The tasks of one process, in a map: at most `maxTasks` at once, each
 * dropped when its time to live has passed, and every byte they keep counted
 * in the server's memory budget (a task whose result does not fit fails
 * with the budget's error instead).
 */
export class InProcessTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Entry>();
  private readonly listeners = new Set<TaskListener>();

  constructor(
    private readonly maxTasks: number,
    private readonly memory?: MemoryBudget,
  ) {}

  async create(task: StoredTask): Promise<void> {
    if (this.maxTasks > 0 && this.tasks.size >= this.maxTasks) {
      throw new JsonRpcError(
        McpErrorCode.TransportError,
        `The server keeps ${this.maxTasks} tasks at most (tasks.maxTasks), and has that many: try again once one has expired (each is kept for its ttlMs), or raise tasks.maxTasks in mcp-dir.config.ts or createServer`,
      );
    }
    const held = heldSize(task);
    this.memory?.take(held, "tools/call (a task)");
    const expiry = setTimeout(() => this.expire(task.taskId), task.ttlMs);
    // A task kept for later must not keep a process alive that would otherwise end.
    expiry.unref();
    this.tasks.set(task.taskId, { task, held, expiry });
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    return this.tasks.get(taskId)?.task;
  }

  async update(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    const entry = this.tasks.get(taskId);
    if (!entry) return undefined;
    const next = change(entry.task);
    if (next === undefined) return undefined;
    const held = heldSize(next);
    if (held > entry.held) this.memory?.take(held - entry.held, "a task's new state");
    else this.memory?.give(entry.held - held);
    entry.held = held;
    entry.task = next;
    this.tell(taskId, next);
    return next;
  }

  async list(owner: string): Promise<StoredTask[]> {
    return [...this.tasks.values()]
      .map((entry) => entry.task)
      .filter((task) => task.owner === owner);
  }

  subscribe(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  get size(): number {
    return this.tasks.size;
  }

  private expire(taskId: string): void {
    const entry = this.tasks.get(taskId);
    if (!entry) return;
    this.tasks.delete(taskId);
    this.memory?.give(entry.held);
    this.tell(taskId, undefined);
  }

  private tell(taskId: string, task: StoredTask | undefined): void {
    for (const listener of [...this.listeners]) listener(taskId, task);
  }
}
