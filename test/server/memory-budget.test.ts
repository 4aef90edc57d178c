/**
 * How large the memory budget is: a quarter of the heap the process runs
 * with, unless set; where the runtime does not tell its heap (Workers, some
 * Bun and Deno builds), 32 MiB rather than a failure.
 */
import { getHeapStatistics } from "node:v8";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer } from "../../src/index.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("memoryBudgetBytes", () => {
  it("defaults to a quarter of the heap limit", () => {
    const server = createServer({ name: "budget", version: "1.0.0" });
    expect(server.memory.limit).toBe(Math.floor(getHeapStatistics().heap_size_limit / 4));
  });

  it("defaults to 32 MiB where the runtime has no node:v8, or no heap statistics", () => {
    vi.spyOn(process, "getBuiltinModule").mockImplementation(() => {
      throw new Error("No such built-in module: node:v8");
    });
    expect(createServer({ name: "no-v8", version: "1.0.0" }).memory.limit).toBe(32 * 1024 * 1024);
    vi.spyOn(process, "getBuiltinModule").mockReturnValue({});
    expect(createServer({ name: "no-statistics", version: "1.0.0" }).memory.limit).toBe(
      32 * 1024 * 1024,
    );
  });

  it("takes a number of bytes, 0 for no limit, and refuses anything else", () => {
    expect(
      createServer({ name: "set", version: "1.0.0", memoryBudgetBytes: 65_536 }).memory.limit,
    ).toBe(65_536);
    expect(createServer({ name: "off", version: "1.0.0", memoryBudgetBytes: 0 }).memory.limit).toBe(
      0,
    );
    expect(() => createServer({ name: "bad", version: "1.0.0", memoryBudgetBytes: -1 })).toThrow(
      new TypeError("memoryBudgetBytes must be a whole number of 0 or more, got -1"),
    );
  });
});
