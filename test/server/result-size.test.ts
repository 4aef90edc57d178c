import { describe, expect, it } from "vitest";
import { sizeOver } from "../../src/server/result-size.js";
import { createServer } from "../../src/server/server.js";

describe("the result size limit", () => {
  it("is 16 MiB unless set, 0 for none; anything but a whole number of 0 or more is refused", () => {
    expect(createServer({ name: "s", version: "1" }).maxResultBytes).toBe(16 * 1024 * 1024);
    expect(createServer({ name: "s", version: "1", maxResultBytes: 0 }).maxResultBytes).toBe(0);
    for (const bad of [-1, 2.5]) {
      expect(() => createServer({ name: "s", version: "1", maxResultBytes: bad })).toThrow(
        new TypeError(`maxResultBytes must be a whole number of 0 or more, got ${bad}`),
      );
    }
  });

  it("counts UTF-8 bytes, not characters, and nothing past it when 0", () => {
    expect(sizeOver('"ééé"', 8)).toBeUndefined();
    expect(sizeOver('"éééé"', 8)).toBe(10);
    expect(sizeOver('"😀😀"', 9)).toBe(10);
    expect(sizeOver("x".repeat(100), 0)).toBeUndefined();
  });
});
