import { describe, expect, it } from "vitest";
import { parseUriTemplate } from "../../src/define/index.js";

/**
 * Long URIs that every operator's parts must read to the end to refuse; the
 * first six took a backtracking RegExp quadratic or cubic time (the first,
 * 10.7 s at 4,000 slashes), and the last three hold {var:n} prefixes and
 * exploded {list*} variables among them. The matcher counts the characters its
 * threads examine, so linearity is checked without a clock.
 */
const hostile: [template: string, uri: (n: number) => string][] = [
  ["gh://{+owner}/{+repo}/{+path}", (n) => `gh://${"/".repeat(n)}\n`],
  ["search://{id}{?q}{&limit}", (n) => `search://a${"?".repeat(n)}#`],
  ["x://{+a,b,c}", (n) => `x://${",".repeat(n)}\n`],
  ["x://p{#a,b,c}/end", (n) => `x://p#${",".repeat(n)}\n`],
  ["x://{a}{b}{c}", (n) => `x://${"a".repeat(n)}/`],
  ["x://{+a}{?q}{&r}{#f}", (n) => `x://${"?".repeat(n)}#\n`],
  ["x://root{/a,b}{.c,d}{?q}", (n) => `x://root/${"a".repeat(n)}/.${"?".repeat(n)}#`],
  ["x://{+a}{b:3}{+c}", (n) => `x://${"/".repeat(n)}\n`],
  ["x://{+a}{+b:2}/{c:3}{.d:2}", (n) => `x://${"a%2F".repeat(n)}/#`],
  ["x://{a*,b}{/c*,d}{.e*}{?f*}", (n) => `x://${",".repeat(n)}/${"/.".repeat(n)}#`],
];

const stepsOf = (template: string, uri: string) => {
  const work = { steps: 0 };
  const values = parseUriTemplate(template).match(uri, work);
  return { values, steps: work.steps };
};

describe("matching a URI takes steps in proportion to its length", () => {
  it.each(hostile)("%s refuses a hostile URI in linear steps", (template, uriOf) => {
    const short = stepsOf(template, uriOf(2_000));
    const long = stepsOf(template, uriOf(4_000));
    expect(short.values).toBeUndefined();
    expect(long.values).toBeUndefined();
    expect(short.steps).toBeGreaterThan(2_000);
    // Each character is examined at most once per part of the template.
    expect(long.steps).toBeLessThanOrEqual(uriOf(4_000).length * template.length);
    // Twice the URI, at most twice the work (and a few steps for the fixed parts).
    expect(long.steps).toBeLessThanOrEqual(2 * short.steps + template.length);
  });

  it("matches a long URI that fits, in linear steps", () => {
    const path = "a/".repeat(50_000);
    const { values, steps } = stepsOf("gh://{+owner}/{+repo}/{+path}", `gh://o/r/${path}x`);
    expect(values).toEqual({ owner: "o", repo: "r", path: `${path}x` });
    expect(steps).toBeLessThanOrEqual(10 * path.length);
  });

  it("reads no further than the fixed start of a template that begins otherwise", () => {
    const { values, steps } = stepsOf("gh://{+owner}/{+repo}", `other://${"a".repeat(100_000)}`);
    expect(values).toBeUndefined();
    expect(steps).toBe("gh://".length);
  });

  it("stops at the first character no part of the template can take", () => {
    const { values, steps } = stepsOf("gh://{owner}/{repo}", `gh://a/b/${"c".repeat(100_000)}`);
    expect(values).toBeUndefined();
    expect(steps).toBeLessThan(20);
  });
});
