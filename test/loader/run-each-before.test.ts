import { describe, expect, it } from "vitest";
import { LoadTimeoutError, runEachBefore } from "../../src/loader/load-timeout.js";

/** Keeps the thread busy for `ms`, as a file's top-level code would. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

describe("runEachBefore: many loads under one timer", () => {
  it("stops an item that never ends, and goes on with the next ones", () => {
    const outcomes = runEachBefore(["a", "spin", "b"], 100, (item) => {
      if (item === "spin") for (;;) {}
      return item.toUpperCase();
    });
    expect(outcomes[0]).toEqual({ ok: true, value: "A" });
    expect(outcomes[1]).toEqual({ ok: false, error: new LoadTimeoutError(100) });
    expect((outcomes[1] as { error: unknown }).error).toBeInstanceOf(LoadTimeoutError);
    expect(outcomes[2]).toEqual({ ok: true, value: "B" });
  });

  it("gives every item its full time, however late in a run it starts", () => {
    // The first item uses most of the run's start window (a tenth of 200 ms);
    // the second then needs 150 ms, within its own 200 ms.
    const outcomes = runEachBefore([15, 150], 200, (ms) => {
      busyFor(ms);
      return ms;
    });
    expect(outcomes).toEqual([
      { ok: true, value: 15 },
      { ok: true, value: 150 },
    ]);
  });

  it("keeps an item's error as its outcome, and stops after an outcome `until` accepts", () => {
    const boom = new Error("boom");
    const wait = new Error("wait for me");
    const outcomes = runEachBefore(
      ["a", "boom", "wait", "never"],
      1000,
      (item) => {
        if (item === "boom") throw boom;
        if (item === "wait") throw wait;
        return item;
      },
      (outcome) => !outcome.ok && outcome.error === wait,
    );
    expect(outcomes).toEqual([
      { ok: true, value: "a" },
      { ok: false, error: boom },
      { ok: false, error: wait },
    ]);
  });

  it("lets `until` see a stopped item's outcome too, and stops there when it accepts it", () => {
    const seen: unknown[] = [];
    const outcomes = runEachBefore(
      ["a", "spin", "never"],
      100,
      (item) => {
        if (item === "spin") for (;;) {}
        return item;
      },
      (outcome) => {
        seen.push(outcome.ok ? outcome.value : outcome.error);
        return !outcome.ok;
      },
    );
    expect(outcomes).toEqual([
      { ok: true, value: "a" },
      { ok: false, error: new LoadTimeoutError(100) },
    ]);
    expect(seen).toEqual(["a", new LoadTimeoutError(100)]);
  });
});
