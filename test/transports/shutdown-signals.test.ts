import { afterEach, describe, expect, it, vi } from "vitest";
import { endBySignal } from "../../src/transports/shutdown-signals.js";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("endBySignal on Node", () => {
  it("sends the signal and holds nothing to end the process later", () => {
    // A process whose signal is recorded instead (a test, say) must not be ended by a timer.
    vi.useFakeTimers();
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    const exit = vi.spyOn(process, "exit").mockImplementation(() => undefined as never);
    endBySignal("SIGTERM");
    expect(kill).toHaveBeenCalledWith(process.pid, "SIGTERM");
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(exit).not.toHaveBeenCalled();
  });
});
