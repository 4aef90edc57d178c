import { describe, expect, it } from "vitest";
import { thrownDetail, thrownMessage } from "../../src/define/thrown.js";

describe("thrownMessage", () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  const unreadable = new Proxy(
    {},
    {
      get() {
        throw new Error("trap");
      },
      getPrototypeOf() {
        throw new Error("trap");
      },
    },
  );

  it.each([
    ["an Error", new TypeError("bad type"), "bad type"],
    ["an error-like object", { message: "quota exceeded", code: 429 }, "quota exceeded"],
    ["a string", "plain string", "plain string"],
    ["an object, as JSON", { code: 7 }, '{"code":7}'],
    ["a null-prototype object", Object.create(null), "a thrown object with no message"],
    [
      "an object whose toString throws",
      {
        toString() {
          throw new Error("boom");
        },
      },
      "a thrown object with no message",
    ],
    ["an object JSON cannot hold", cycle, "a thrown object with no message"],
    ["a Proxy whose traps throw", unreadable, "a thrown value that cannot be read"],
    ["a function", () => "source", "a thrown function"],
    ["a number", 7, "7"],
    ["a symbol", Symbol("s"), "Symbol(s)"],
    ["undefined", undefined, "undefined"],
    ["null", null, "null"],
  ])("shows %s", (_, thrown, shown) => {
    expect(thrownMessage(thrown)).toBe(shown);
  });

  it("gives the developer an Error's stack, and the message of anything else", () => {
    const error = new Error("with a stack");
    expect(thrownDetail(error)).toBe(error.stack);
    expect(thrownDetail({ code: 7 })).toBe('{"code":7}');
    expect(thrownDetail(Object.create(null))).toBe("a thrown object with no message");
  });
});
