import { describe, expect, it } from "vitest";
import { definePrompt, defineResource, defineTool } from "../../src/define/index.js";
import { createServer } from "../../src/server/server.js";
import { definitionError } from "./helpers.js";

const WHOLE_MS = "must be a whole number of milliseconds from 0 (no limit) to 2147483647";

describe("a time limit in milliseconds", () => {
  const bad: [unknown, string][] = [
    [-1, "-1"],
    [1.5, "1.5"],
    ["50", '"50"'],
    [2 ** 31, "2147483648"],
    [Number.POSITIVE_INFINITY, "Infinity"],
  ];

  it.each(bad)("is refused in every kind of definition: %s", (timeoutMs, shown) => {
    const problem = `timeoutMs ${WHOLE_MS}, not ${shown}`;
    const limit = { timeoutMs: timeoutMs as number };
    expect(
      definitionError(() =>
        defineTool({ name: "t", description: "d", ...limit, handler: () => "" }),
      ).problems,
    ).toEqual([problem]);
    expect(
      definitionError(() => definePrompt({ name: "p", ...limit, get: () => "" })).problems,
    ).toEqual([problem]);
    expect(
      definitionError(() =>
        defineResource({ name: "r", uri: "memo://r", ...limit, read: () => "" }),
      ).problems,
    ).toEqual([problem]);
  });

  it.each(bad)("is refused as the server's callTimeoutMs: %s", (callTimeoutMs, shown) => {
    expect(() =>
      createServer({ name: "s", version: "1", callTimeoutMs: callTimeoutMs as number }),
    ).toThrow(new TypeError(`callTimeoutMs ${WHOLE_MS}, not ${shown}`));
  });

  it("accepts 0 (no limit) and the longest a timer can wait", () => {
    for (const timeoutMs of [0, 2 ** 31 - 1]) {
      expect(() =>
        defineTool({ name: "t", description: "d", timeoutMs, handler: () => "" }),
      ).not.toThrow();
      expect(
        createServer({ name: "s", version: "1", callTimeoutMs: timeoutMs }).callTimeoutMs,
      ).toBe(timeoutMs);
    }
    expect(createServer({ name: "s", version: "1" }).callTimeoutMs).toBe(300_000);
  });
});
