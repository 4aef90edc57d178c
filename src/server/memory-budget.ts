import { JsonRpcError } from "../jsonrpc/index.js";
import { McpErrorCode } from "../protocol/errors.js";

/** What a value costs beside its characters: its header, its slot in what holds it. */
export const SLOT_BYTES = 16;

/** Where the runtime tells no heap limit (Workers, some Bun and Deno builds): a quarter of a Worker's 128 MB. */
const UNKNOWN_HEAP_BUDGET = 32 * 1024 * 1024;

/**
 * About how many bytes a value parsed from JSON keeps alive: its strings'
 * characters and a little per value and key. Its nesting is bounded where
 * messages are parsed, so the walk is too.
 */
export function heldSize(value: unknown): number {
  if (typeof value === "string") return value.length + SLOT_BYTES;
  if (typeof value !== "object" || value === null) return SLOT_BYTES;
  let size = SLOT_BYTES;
  if (Array.isArray(value)) {
    for (const item of value) size += heldSize(item);
  } else {
    for (const key in value) {
      size += key.length + heldSize((value as Record<string, unknown>)[key]);
    }
  }
  return size;
}

/** What one resource subscription of a 2025 session keeps: its URI in the session's set. */
export function subscriptionSize(uri: string): number {
  return heldSize(uri) + SLOT_BYTES;
}

/** The heap this process may grow to, where the runtime tells it. */
function heapLimit(): number | undefined {
  try {
    const v8 = globalThis.process?.getBuiltinModule?.("node:v8") as
      | typeof import("node:v8")
      | undefined;
    const limit = v8?.getHeapStatistics?.().heap_size_limit;
    return typeof limit === "number" && Number.isFinite(limit) && limit > 0 ? limit : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A quarter of the heap this process runs with (`--max-old-space-size`
 * sets it), else 32 MiB where the runtime does not tell it: the default of
 * each budget of what clients may make the server keep.
 */
export function heapQuarter(): number {
  const limit = heapLimit();
  return limit === undefined ? UNKNOWN_HEAP_BUDGET : Math.floor(limit / 4);
}

/**
 * What all clients together may make the server keep between their
 * requests: 2025 sessions (what initialize told, resource subscriptions) and
 * 2026-07-28 listen streams (the request each keeps open). Each takes its
 * bytes when it starts keeping them and gives them back when it stops; a
 * request that would pass the limit is refused with an error naming it,
 * before anything is kept. A limit of 0 counts but never refuses.
 */
export class MemoryBudget {
  private held = 0;

  constructor(readonly limit: number) {}

  /** Bytes kept now, by every client together. */
  get used(): number {
    return this.held;
  }

  /** Takes `bytes` for a `method` request, or throws the error its client is answered with. */
  take(bytes: number, method: string): void {
    if (this.limit > 0 && this.held + bytes > this.limit) {
      throw new JsonRpcError(
        McpErrorCode.TransportError,
        `${method}: the server's memory budget has no room for this: what all its clients keep between requests (subscriptions, listen streams, sessions) may take ${this.limit} bytes (memoryBudgetBytes); unsubscribe from a resource, close a listen stream or end a session no longer needed and try again, or raise memoryBudgetBytes in mcp-dir.config.ts or createServer`,
      );
    }
    this.held += bytes;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}
