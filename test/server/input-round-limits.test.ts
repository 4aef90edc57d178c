import { describe, expect, it } from "vitest";
import { createServer } from "../../src/server/server.js";

describe("createServer's inputRounds.maxRounds", () => {
  it("is a whole number of 1 or more: 0 would let no request ask for input at all", () => {
    expect(() =>
      createServer({ name: "s", version: "1", inputRounds: { maxRounds: 1 } }),
    ).not.toThrow();
    for (const bad of [0, -1, 2.5]) {
      expect(() =>
        createServer({ name: "s", version: "1", inputRounds: { maxRounds: bad } }),
      ).toThrow(
        new TypeError(`inputRounds.maxRounds must be a whole number of 1 or more, got ${bad}`),
      );
    }
  });
});
