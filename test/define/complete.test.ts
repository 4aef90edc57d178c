import { describe, expect, it } from "vitest";
import {
  type CompletionRequest,
  complete,
  completerKeyProblems,
  MAX_COMPLETION_VALUES,
} from "../../src/define/index.js";

const request = (value: string, args: Record<string, string> = {}): CompletionRequest => ({
  value,
  arguments: args,
});

describe("complete", () => {
  const languages = ["Go", "golang-ci", "Python", "Rust", "gleam"];

  it("filters a static list by case-insensitive prefix, keeping its order", async () => {
    expect(await complete(languages, request("g"))).toEqual({
      values: ["Go", "golang-ci", "gleam"],
      total: 3,
      hasMore: false,
    });
    expect(await complete(languages, request("GO"))).toEqual({
      values: ["Go", "golang-ci"],
      total: 2,
      hasMore: false,
    });
    expect(await complete(languages, request("x"))).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    });
  });

  it("returns the whole static list for an empty value", async () => {
    expect(await complete(languages, request(""))).toEqual({
      values: languages,
      total: 5,
      hasMore: false,
    });
  });

  it("gives a function completer the value and the other arguments, unfiltered", async () => {
    const seen: CompletionRequest[] = [];
    const result = await complete(
      async (r) => {
        seen.push(r);
        return ["zeta", "alpha"];
      },
      request("al", { owner: "acme" }),
    );
    expect(seen).toEqual([{ value: "al", arguments: { owner: "acme" } }]);
    expect(result).toEqual({ values: ["zeta", "alpha"], total: 2, hasMore: false });
  });

  it("caps values at 100 and reports the total", async () => {
    expect(MAX_COMPLETION_VALUES).toBe(100);
    const many = Array.from({ length: 150 }, (_, i) => `user${String(i).padStart(3, "0")}`);
    const fromList = await complete(many, request("user"));
    expect(fromList.values).toHaveLength(100);
    expect(fromList.values[0]).toBe("user000");
    expect(fromList.values[99]).toBe("user099");
    expect(fromList.total).toBe(150);
    expect(fromList.hasMore).toBe(true);
    const fromFunction = await complete(() => many, request(""));
    expect(fromFunction.values).toEqual(many.slice(0, 100));
    expect(fromFunction).toMatchObject({ total: 150, hasMore: true });
  });

  it("is not capped at exactly 100", async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `v${i}`);
    const result = await complete(hundred, request("v"));
    expect(result.values).toHaveLength(100);
    expect(result).toMatchObject({ total: 100, hasMore: false });
  });

  it("completes nothing without a completer", async () => {
    expect(await complete(undefined, request("a"))).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    });
  });
});

describe("completerKeyProblems", () => {
  it("accepts no completers and known keys", () => {
    expect(completerKeyProblems(undefined, ["a"], "argument")).toEqual([]);
    expect(completerKeyProblems({ a: ["x"], b: () => [] }, ["a", "b"], "argument")).toEqual([]);
  });

  it("names unknown keys and bad completers", () => {
    expect(completerKeyProblems({ a: "x", c: ["y"] }, ["a", "b"], "template variable")).toEqual([
      "complete.a must be an array of strings or a function",
      "complete.c does not match any template variable (a, b)",
    ]);
    expect(completerKeyProblems({ a: ["x", 3] }, ["a"], "argument")).toEqual([
      "complete.a must be an array of strings or a function",
    ]);
    expect(completerKeyProblems({ c: 1 }, [], "argument")).toEqual([
      "complete.c does not match any argument (there are none)",
      "complete.c must be an array of strings or a function",
    ]);
  });
});
