import { describe, expect, it } from "vitest";
import { parseUriTemplate, uriProblem } from "../../src/define/index.js";

const parseError = (template: string): string => {
  try {
    parseUriTemplate(template);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${template} parsed`);
};

describe("parseUriTemplate: variables", () => {
  it.each([
    ["users://{id}", ["id"]],
    ["users://{org}/{id}/posts", ["org", "id"]],
    ["files://{+path}", ["path"]],
    ["files://root{/a,b}", ["a", "b"]],
    ["search://q{?q,limit}", ["q", "limit"]],
    ["search://q{?q}{&page}", ["q", "page"]],
    ["docs://page{#frag}", ["frag"]],
    ["files://name{.ext}", ["ext"]],
    ["a://{x,y}", ["x", "y"]],
    ["a://{list*}/{short:3}", ["list", "short"]],
    ["a://{snake_case1}", ["snake_case1"]],
  ])("%s has variables %j", (template, variables) => {
    const parsed = parseUriTemplate(template);
    expect(parsed.template).toBe(template);
    expect(parsed.variables).toEqual(variables);
  });
});

describe("parseUriTemplate: errors", () => {
  it.each([
    ["users://{id", "unbalanced braces in URI template users://{id"],
    ["users://}{id}", "unbalanced braces in URI template users://}{id}"],
    ["users://{id}/x}", 'unbalanced "}" in URI template users://{id}/x}'],
    ["users://{a{b}}", 'nested "{" in URI template users://{a{b}}'],
    ["users://{id}/{id}", "URI template users://{id}/{id} names a variable twice"],
    ["users://{?id}{&id}", "URI template users://{?id}{&id} names a variable twice"],
    ["users://all", 'URI template users://all has no {variables}; use "uri" for a fixed URI'],
    ["users://{}", 'variable "" in users://{} must be letters, digits or "_"'],
    ["users://{a-b}", 'variable "a-b" in users://{a-b} must be letters, digits or "_"'],
    ["users://{a b}", 'variable "a b" in users://{a b} must be letters, digits or "_"'],
    ["users://{a,}", 'variable "" in users://{a,} must be letters, digits or "_"'],
    ["users://{=x}", 'variable "=x" in users://{=x} must be letters, digits or "_"'],
    ["users://{;x}", '"{;...}" path parameters are not supported in users://{;x}'],
    ["users/{id}", 'URI template "users/{id}" needs a scheme, such as "users://{id}"'],
    ["users://{id:0}", 'prefix "id:0" in users://{id:0} must be 1 to 9999 characters'],
    ["users://{id:10000}", 'prefix "id:10000" in users://{id:10000} must be 1 to 9999 characters'],
    ["users://{id:03}", 'prefix "id:03" in users://{id:03} must be 1 to 9999 characters'],
  ])("rejects %s", (template, message) => {
    expect(parseError(template)).toBe(message);
  });
});

describe("parseUriTemplate: matching", () => {
  const match = (template: string, uri: string) => parseUriTemplate(template).match(uri);

  it("matches simple variables, one segment each, decoding escapes", () => {
    expect(match("users://{id}", "users://42")).toEqual({ id: "42" });
    expect(match("users://{id}", "users://Ada%20Lovelace")).toEqual({ id: "Ada Lovelace" });
    expect(match("users://{id}", "users://caf%C3%A9")).toEqual({ id: "café" });
    expect(match("users://{org}/{id}/posts", "users://acme/7/posts")).toEqual({
      org: "acme",
      id: "7",
    });
    expect(match("users://{id}", "users://a/b")).toBeUndefined();
    expect(match("users://{id}", "users://a?x=1")).toBeUndefined();
    expect(match("users://{org}/{id}/posts", "users://acme/7/comments")).toBeUndefined();
  });

  it("does not match an empty simple or reserved variable", () => {
    expect(match("users://{id}", "users://")).toBeUndefined();
    expect(match("users://{org}/{id}", "users://acme/")).toBeUndefined();
    expect(match("files://{+path}", "files://")).toBeUndefined();
  });

  it("keeps a malformed escape as it is", () => {
    expect(match("users://{id}", "users://100%")).toEqual({ id: "100%" });
  });

  it("matches comma lists, modifiers and all", () => {
    expect(match("a://{x,y}", "a://1,2")).toEqual({ x: "1", y: "2" });
    expect(match("a://{list*}/{short:3}", "a://1/abc")).toEqual({ list: "1", short: "abc" });
  });

  it("matches a {var:n} prefix only when its decoded value has at most n characters", () => {
    expect(match("users://{id:3}", "users://abc")).toEqual({ id: "abc" });
    expect(match("users://{id:3}", "users://ab")).toEqual({ id: "ab" });
    expect(match("users://{id:3}", "users://abcdef")).toBeUndefined();
    expect(match("users://{id:3}", "users://abcd")).toBeUndefined();
    // Characters, not URI characters: an escape, a UTF-8 sequence or a surrogate pair is one.
    expect(match("users://{id:3}", "users://a%20b")).toEqual({ id: "a b" });
    expect(match("users://{id:3}", "users://%C3%A9t%C3%A9")).toEqual({ id: "été" });
    expect(match("users://{id:3}", "users://%F0%9F%98%80ab")).toEqual({ id: "😀ab" });
    expect(match("users://{id:3}", "users://😀ab")).toEqual({ id: "😀ab" });
    expect(match("users://{id:3}", "users://%C3%A9t%C3%A9s")).toBeUndefined();
    expect(match("users://{id:3}", "users://1%")).toEqual({ id: "1%" });
    expect(match("users://{id:3}/posts", "users://abcd/posts")).toBeUndefined();
  });

  it("limits a prefix in every operator", () => {
    expect(match("x://{+p:5}", "x://a/b/c")).toEqual({ p: "a/b/c" });
    expect(match("x://{+p:5}", "x://a/b/cd")).toBeUndefined();
    expect(match("x://p{#f:3}", "x://p#abc")).toEqual({ f: "abc" });
    expect(match("x://p{#f:3}", "x://p#abcd")).toBeUndefined();
    expect(match("x://p{/s:2}", "x://p/ab")).toEqual({ s: "ab" });
    expect(match("x://p{/s:2}", "x://p/abc")).toBeUndefined();
    expect(match("x://p{.e:2}", "x://p.js")).toEqual({ e: "js" });
    expect(match("x://p{.e:2}", "x://p.json")).toBeUndefined();
    expect(match("x://p{?q:3,r}", "x://p?q=a%20b&r=long")).toEqual({ q: "a b", r: "long" });
    expect(match("x://p{?q:3}", "x://p?q=abcd")).toBeUndefined();
    expect(match("x://p{?q}{&r:1}", "x://p?q=1&r=22")).toBeUndefined();
  });

  it("splits a URI so that a prefix holds no more than it may", () => {
    expect(match("x://{a:2}{b}", "x://abcd")).toEqual({ a: "ab", b: "cd" });
    expect(match("x://{+a}{+b:2}", "x://abcd")).toEqual({ a: "ab", b: "cd" });
    expect(match("x://{name:4}{.ext}", "x://a.b.c")).toEqual({ name: "a.b", ext: "c" });
    expect(match("x://{name:2}{.ext}", "x://a.b.c")).toBeUndefined();
  });

  it("matches an exploded {list*} as it expands, the items joined with commas", () => {
    expect(match("list://{ids*}", "list://a,b,c")).toEqual({ ids: "a,b,c" });
    expect(match("list://{ids*}", "list://a")).toEqual({ ids: "a" });
    expect(match("list://{ids*}", "list://caf%C3%A9,b%20c")).toEqual({ ids: "café,b c" });
    expect(match("list://{ids*}/x", "list://a,b/x")).toEqual({ ids: "a,b" });
    expect(match("list://{ids*}", "list://a/b")).toBeUndefined();
    expect(match("list://{ids*}", "list://")).toBeUndefined();
    expect(match("x://{a*,b}", "x://1,2,3")).toEqual({ a: "1,2", b: "3" });
    expect(match("x://{a,b*}", "x://1,2,3")).toEqual({ a: "1", b: "2,3" });
    expect(match("x://{ids*}{.ext}", "x://a,b.tar.gz")).toEqual({ ids: "a,b.tar", ext: "gz" });
  });

  it("keeps an item's own commas and percent signs escaped, so the items come back exactly", () => {
    const { ids = "" } = match("list://{ids*}", "list://a%2Cb,100%25,c%252C") ?? {};
    expect(ids).toBe("a%2Cb,100%25,c%252C");
    expect(ids.split(",").map(decodeURIComponent)).toEqual(["a,b", "100%", "c%2C"]);
    expect(match("list://{ids*}", "list://100%")).toEqual({ ids: "100%25" });
  });

  it("matches exploded reserved and fragment lists", () => {
    expect(match("x://{+paths*}", "x://a/b,c/d")).toEqual({ paths: "a/b,c/d" });
    expect(match("x://{+paths*}", "x://a%2Cb")).toEqual({ paths: "a%2Cb" });
    expect(match("x://p{#f*}", "x://p#a,b")).toEqual({ f: "a,b" });
  });

  it("matches an exploded {/path*} segment by segment", () => {
    expect(match("files://root{/path*}", "files://root/a/b/c")).toEqual({ path: "a,b,c" });
    expect(match("files://root{/path*}", "files://root/a%2Cb/c%2Fd")).toEqual({
      path: "a%2Cb,c/d",
    });
    expect(match("files://root{/path*}", "files://root")).toEqual({});
    expect(match("files://root{/path*}{.ext}", "files://root/a/b.html")).toEqual({
      path: "a,b",
      ext: "html",
    });
    expect(match("files://root{/path*}/raw", "files://root/a/b/raw")).toEqual({ path: "a,b" });
    // Segments are optional: the first variable takes all it can, as in {/a,b}.
    expect(match("files://root{/path*,last}", "files://root/a/b/c")).toEqual({ path: "a,b,c" });
  });

  it("matches an exploded {.label*} dot-part by dot-part", () => {
    expect(match("x://host{.parts*}", "x://host.a.b")).toEqual({ parts: "a,b" });
    expect(match("x://{name}{.exts*}", "x://report.tar.gz")).toEqual({
      name: "report",
      exts: "tar,gz",
    });
  });

  it("gathers every value of an exploded query variable", () => {
    expect(match("q://x{?tags*}", "q://x?tags=a&tags=b")).toEqual({ tags: "a,b" });
    expect(match("q://x{?tags*}", "q://x?tags=a%2Cb&tags=c")).toEqual({ tags: "a%2Cb,c" });
    expect(match("q://x{?q}{&tags*}", "q://x?tags=a&q=1&tags=b")).toEqual({ q: "1", tags: "a,b" });
    expect(match("q://x{?tags*}", "q://x?other=1")).toEqual({});
  });

  it("matches {+path} across slashes", () => {
    expect(match("files://{+path}", "files://docs/a%20b.txt")).toEqual({ path: "docs/a b.txt" });
    expect(match("files://{+path}/raw", "files://a/b/raw")).toEqual({ path: "a/b" });
  });

  it("gives each of several {+vars} as little as lets the rest match, and no line break", () => {
    const gh = "gh://{+owner}/{+repo}/{+path}";
    expect(match(gh, "gh://a/b/c/d")).toEqual({ owner: "a", repo: "b", path: "c/d" });
    expect(match(gh, "gh://a//b/c")).toEqual({ owner: "a", repo: "/b", path: "c" });
    expect(match(gh, "gh://a/b")).toBeUndefined();
    expect(match("files://{+path}", "files://a\nb")).toBeUndefined();
    expect(match("files://{+path}", "files://a\u2028b")).toBeUndefined();
  });

  it("matches optional {/seg} segments", () => {
    expect(match("files://root{/a,b}", "files://root/x/y")).toEqual({ a: "x", b: "y" });
    expect(match("files://root{/a,b}", "files://root/x")).toEqual({ a: "x" });
    expect(match("files://root{/a,b}", "files://root")).toEqual({});
    expect(match("files://root{/a}", "files://root/x%2Fy")).toEqual({ a: "x/y" });
  });

  it("matches an optional {.ext}", () => {
    expect(match("files://name{.ext}", "files://name.json")).toEqual({ ext: "json" });
    expect(match("files://name{.ext}", "files://name")).toEqual({});
    expect(match("files://name{.ext}", "files://name.tar.gz")).toBeUndefined();
  });

  it("gives a {.ext} after a variable the last dot-part", () => {
    expect(match("files://{name}{.ext}", "files://report.tar.gz")).toEqual({
      name: "report.tar",
      ext: "gz",
    });
    expect(match("files://{name}{.ext}", "files://README")).toEqual({ name: "README" });
    expect(match("files://x{/page}{.format}", "files://x/a.b.html")).toEqual({
      page: "a.b",
      format: "html",
    });
  });

  it("matches query variables in any order, decoding them", () => {
    expect(match("search://q{?q,limit}", "search://q?q=a%20b&limit=5")).toEqual({
      q: "a b",
      limit: "5",
    });
    expect(match("search://q{?q,limit}", "search://q?limit=5&q=x")).toEqual({
      q: "x",
      limit: "5",
    });
    expect(match("search://q{?q,limit}", "search://q?limit=5")).toEqual({ limit: "5" });
    expect(match("search://q{?q,limit}", "search://q")).toEqual({});
    expect(match("search://q{?q,limit}", "search://q?other=1")).toEqual({});
  });

  it("matches {?a}{&b} as one query", () => {
    expect(match("search://q{?q}{&page}", "search://q?q=a&page=2")).toEqual({
      q: "a",
      page: "2",
    });
    expect(match("search://q?fixed=1{&page}", "search://q?fixed=1&page=3")).toEqual({
      page: "3",
    });
  });

  it("matches an optional {#frag}", () => {
    expect(match("docs://page{#frag}", "docs://page#intro")).toEqual({ frag: "intro" });
    expect(match("docs://page{#frag}", "docs://page")).toEqual({});
  });

  it("treats regex characters in the literal parts literally", () => {
    expect(match("a+b://x.y/{id}", "a+b://x.y/1")).toEqual({ id: "1" });
    expect(match("a+b://x.y/{id}", "a+b://xzy/1")).toBeUndefined();
  });
});

describe("uriProblem", () => {
  it("accepts URIs with a scheme", () => {
    for (const uri of ["config://app", "file:///tmp/a.txt", "https://example.com/x", "urn:a:b"]) {
      expect(uriProblem(uri)).toBeUndefined();
    }
  });

  it("explains what is wrong", () => {
    expect(uriProblem("app")).toBe(
      'uri "app" is not a URI: it needs a scheme, such as "config://app" or "file:///path"',
    );
    expect(uriProblem(42)).toBe(
      'uri 42 is not a URI: it needs a scheme, such as "config://app" or "file:///path"',
    );
    expect(uriProblem("http://[bad")).toBe('uri "http://[bad" is not a valid URI');
  });
});

describe("what a template's variables may hold", () => {
  const template = parseUriTemplate("files://{name}{?q}");

  it("gives authors percent-decoded values, dots and slashes included", () => {
    expect(template.match("files://..%2F..%2Fetc%2Fpasswd")).toEqual({
      name: "../../etc/passwd",
    });
  });

  it("matches no URI whose decoded variable holds a NUL character, in the path or the query", () => {
    expect(template.match("files://a%00b")).toBeUndefined();
    expect(template.match("files://a?q=x%00y")).toBeUndefined();
  });
});
