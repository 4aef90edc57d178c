import { describe, expect, it } from "vitest";
import { parseUriTemplate } from "../../src/define/index.js";
import { expandUriTemplate } from "../../src/define/uri-template-expand.js";
import { joinListItems } from "../../src/define/uri-template-syntax.js";

/**
 * RFC 6570 §3.2's variables. A value is a string, as `match` gives it: a list
 * is one only where it is exploded, its items joined with ",".
 */
const RFC = {
  var: "value",
  hello: "Hello World!",
  half: "50%",
  empty: "",
  path: "/foo/bar",
  x: "1024",
  y: "768",
  base: "http://example.com/home/",
  list: "red,green,blue",
};

describe("expandUriTemplate: RFC 6570 §3.2", () => {
  it.each([
    // Simple: only unreserved characters stay.
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{half}", "50%25"],
    ["{x,y}", "1024,768"],
    ["{var:3}", "val"],
    ["{var:30}", "value"],
    ["{list*}", "red,green,blue"],
    ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
    // Reserved: reserved characters stay too.
    ["{+var}", "value"],
    ["{+hello}", "Hello%20World!"],
    ["{+half}", "50%25"],
    ["{+path}/here", "/foo/bar/here"],
    ["{+base}index", "http://example.com/home/index"],
    ["{+x,hello,y}", "1024,Hello%20World!,768"],
    ["{+path:6}/here", "/foo/b/here"],
    ["{+list*}", "red,green,blue"],
    // Fragment.
    ["{#var}", "#value"],
    ["{#hello}", "#Hello%20World!"],
    ["{#x,hello,y}", "#1024,Hello%20World!,768"],
    ["{#path:6}/here", "#/foo/b/here"],
    ["{#list*}", "#red,green,blue"],
    ["{#empty}", "#"],
    // Labels.
    ["X{.var}", "X.value"],
    ["X{.x,y}", "X.1024.768"],
    ["X{.var:3}", "X.val"],
    ["X{.list*}", "X.red.green.blue"],
    ["X{.empty}", "X."],
    // Path segments.
    ["{/var}", "/value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{/var:1}", "/v"],
    ["{/list*}", "/red/green/blue"],
    ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
    ["{/empty}", "/"],
    // Queries.
    ["{?x,y}", "?x=1024&y=768"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["{?var:3}", "?var=val"],
    ["{?list*}", "?list=red&list=green&list=blue"],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{&x,y,empty}", "&x=1024&y=768&empty="],
    ["{&list*}", "&list=red&list=green&list=blue"],
  ])("t:%s expands to t:%s", (template, uri) => {
    expect(expandUriTemplate(`t:${template}`, RFC)).toBe(`t:${uri}`);
  });

  it("escapes every character that is not unreserved, !*'() too, and non-ASCII as UTF-8", () => {
    expect(expandUriTemplate("t:{v}", { v: "a!b*c'(d)" })).toBe("t:a%21b%2Ac%27%28d%29");
    expect(expandUriTemplate("t:{v}", { v: "café 😀" })).toBe("t:caf%C3%A9%20%F0%9F%98%80");
    expect(expandUriTemplate("t:{v}", { v: "a%2Fb" })).toBe("t:a%252Fb");
    expect(expandUriTemplate("t:{+v}", { v: "[1]:@" })).toBe("t:[1]:@");
    // An escape already made stays in {+var} and {#var}; a lone "%" does not.
    expect(expandUriTemplate("t:{+v}", { v: "a%2Fb%" })).toBe("t:a%2Fb%25");
    expect(expandUriTemplate("t:{#v}", { v: "%zz" })).toBe("t:#%25zz");
  });

  it("leaves a variable without a value out, and the whole expression when none has one", () => {
    expect(expandUriTemplate("t:x{/a,b}", { b: "2" })).toBe("t:x/2");
    expect(expandUriTemplate("t:x{?a,b}{&c}", {})).toBe("t:x");
    expect(expandUriTemplate("t:x{?a,b}", { a: undefined, b: "" })).toBe("t:x?b=");
    expect(expandUriTemplate("t:{v}", {})).toBe("t:");
    // Only a value of its own: the object's prototype holds none.
    expect(expandUriTemplate("t:{constructor}{?toString}", {})).toBe("t:");
  });

  it("cuts a value longer than its prefix to its first n characters, not UTF-16 units", () => {
    expect(expandUriTemplate("t:{v:3}", { v: "😀😀😀😀" })).toBe(`t:${"%F0%9F%98%80".repeat(3)}`);
    expect(expandUriTemplate("t:{v:2}", { v: "été" })).toBe("t:%C3%A9t");
    expect(expandUriTemplate("t:{v:2}", { v: "a" })).toBe("t:a");
  });

  it("splits an exploded value's items where match joins them: at commas, %2C and %25 unescaped", () => {
    expect(expandUriTemplate("t:x{/v*}", { v: "a%2Cb,100%25,c%2c" })).toBe("t:x/a%2Cb/100%25/c%2C");
    // Any other "%" is the item's own.
    expect(expandUriTemplate("t:x{?v*}", { v: "100%,%41" })).toBe("t:x?v=100%25&v=%2541");
  });

  it("keeps the template's literal text as written, as match compares it", () => {
    expect(expandUriTemplate("a+b://x y/{id}", { id: "1" })).toBe("a+b://x y/1");
  });

  it("says what is wrong with a template or a value", () => {
    expect(() => expandUriTemplate("users/{id}", { id: "1" })).toThrow(
      'URI template "users/{id}" needs a scheme, such as "users://{id}"',
    );
    expect(() => expandUriTemplate("t:{a b}", {})).toThrow(
      'variable "a b" in t:{a b} must be letters, digits or "_"',
    );
    expect(() => expandUriTemplate("t:{v}", { v: "a\uD800b" })).toThrow(
      'the value of "v" holds half of a surrogate pair, which no URI can carry; remove it',
    );
  });
});

/**
 * Expanding values and matching the URI with mcp-dir's own matcher gives the
 * values back, for each operator, plain and exploded, wherever RFC 6570
 * leaves the URI one reading.
 */
describe("expandUriTemplate then match gives the values back", () => {
  const roundTrip = (template: string, values: Record<string, string>) =>
    parseUriTemplate(template).match(expandUriTemplate(template, values));

  const tricky = ["plain", "a b", "café", "😀x", "a/b", "a?b", "a#b", "a,b", "a&b=c", "a+b"];
  const trickier = [...tricky, "100%", "%zz", "!*'()", "[x]:@", "~-_", "a;b$", "line\nbreak"];

  it.each([
    ["t://{v}", trickier.concat("a.b", "%41")],
    ["t://{+v}", trickier.concat("a.b")],
    ["t://x{#v}", trickier.concat("a.b", "")],
    ["t://x{/v}", trickier.concat("a.b", "%41", "")],
    ["t://x{.v}", trickier.concat("%41", "")],
    ["t://x{?v}", trickier.concat("a.b", "%41", "")],
    ["t://x{?a}{&v}", trickier.concat("a.b", "%41", "")],
  ])("%s", (template, values) => {
    for (const v of values) expect(roundTrip(template, { v }), JSON.stringify(v)).toEqual({ v });
  });

  const lists: string[][] = [
    ["a", "b"],
    ["a b", "café", "😀"],
    ["a,b", "100%", "%2C"],
    ["a/b", "?", "#", "&", "="],
    ["x"],
  ];

  it.each([
    ["t://{v*}", lists],
    ["t://x{/v*}", [...lists, [""], ["a", "", "b"]]],
    ["t://x{.v*}", [...lists.filter((items) => !items.some((item) => item.includes("."))), [""]]],
    ["t://x{?v*}", [...lists, [""], ["a", "", "b"]]],
    ["t://x{?a}{&v*}", lists],
    ["t://{+v*}", [["a", "b/c"], ["x?y#z"], ["100%", "é"]]],
    ["t://x{#v*}", [["a", "b/c"], ["x?y#z"], [""]]],
  ])("%s, exploded", (template, itemLists) => {
    for (const items of itemLists) {
      const v = joinListItems(items);
      expect(roundTrip(template, { v }), JSON.stringify(items)).toEqual({ v });
    }
  });

  it("gives back several variables of one expression, and of several", () => {
    const values = { a: "1 2", b: "x/y", c: "?", d: "p,q", e: "é" };
    for (const template of [
      "t://{a,b}/{c}",
      "t://x{/a,b,c}",
      "t://x{.a,e}",
      "t://x{?a,b,c}{&d,e}",
      "t://{a}{/b*}{.e}{?c,d}",
    ]) {
      const { variables } = parseUriTemplate(template);
      const used = Object.fromEntries(
        Object.entries(values).filter(([name]) => variables.includes(name)),
      );
      expect(roundTrip(template, used), template).toEqual(used);
    }
  });

  it("gives back a value that fits its prefix, and of a longer one, its prefix", () => {
    for (const template of ["t://{v:3}", "t://{+v:3}", "t://x{/v:3}", "t://x{?v:3}"]) {
      for (const v of ["abc", "a b", "😀é", "a"]) expect(roundTrip(template, { v })).toEqual({ v });
      expect(roundTrip(template, { v: "abcdef" })).toEqual({ v: "abc" });
      expect(roundTrip(template, { v: "😀😀😀😀" })).toEqual({ v: "😀😀😀" });
    }
  });

  it("reads another way what RFC 6570 expands to a URI of several readings", () => {
    // An escape in a reserved value is the character it stands for.
    expect(roundTrip("t://{+v}", { v: "a%2Fb" })).toEqual({ v: "a/b" });
    // A reserved list's item keeps its comma, which then separates items.
    expect(roundTrip("t://{+v*}", { v: joinListItems(["a,b"]) })).toEqual({ v: "a,b" });
    // A label's own dot starts another label.
    expect(roundTrip("t://x{.v}", { v: "a.b" })).toBeUndefined();
    expect(roundTrip("t://{name}{.ext}", { name: "a.b", ext: "c.d" })).toEqual({
      name: "a.b.c",
      ext: "d",
    });
    // An empty {var} or {+var} expands to nothing, as no value does.
    expect(roundTrip("t://{v}", { v: "" })).toBeUndefined();
    // The first of {/a,b} takes the one segment there is.
    expect(roundTrip("t://x{/a,b}", { b: "2" })).toEqual({ a: "2" });
    // A second {?...} starts with "?" again: the first value takes it (write {&...}).
    expect(roundTrip("t://x{?a}{?b}", { a: "1", b: "2" })).toEqual({ a: "1?b=2" });
  });
});
