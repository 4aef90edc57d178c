import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type CompiledResource,
  compileResource,
  defineResource,
  definitionKind,
  type ResourceDefinition,
  type TemplateVariables,
} from "../../src/define/index.js";
import type { ReadResourceResult } from "../../src/protocol/index.js";
import { definitionError, fakeContext, jsonRpcError } from "./helpers.js";

const ctx = fakeContext();
const compiled = (definition: ResourceDefinition, fallback = "r"): CompiledResource =>
  compileResource(definition, fallback);

/** Reads a fixed resource whose read returns `value`. */
async function readFixed(value: unknown, mimeType?: string): Promise<ReadResourceResult> {
  const resource = compiled(
    defineResource({
      uri: "config://app",
      ...(mimeType !== undefined && { mimeType }),
      read: () => value as never,
    }),
  );
  return resource.read("config://app", {}, ctx);
}

describe("defineResource: fixed resources", () => {
  it("returns a branded copy and builds the descriptor", () => {
    const definition = defineResource({
      name: "app-config",
      uri: "config://app",
      title: "App config",
      description: "The configuration",
      mimeType: "application/json",
      size: 120,
      annotations: { audience: ["user"], priority: 0.5 },
      icons: [{ src: "https://example.com/c.png" }],
      _meta: { x: 1 },
      read: () => "{}",
    });
    expect(definitionKind(definition)).toBe("resource");
    const resource = compiled(definition);
    expect(resource.kind).toBe("resource");
    expect(resource.name).toBe("app-config");
    expect(resource.uri).toBe("config://app");
    expect(resource.template).toBeUndefined();
    expect(resource.complete).toEqual({});
    expect(resource.descriptor).toEqual({
      uri: "config://app",
      name: "app-config",
      title: "App config",
      description: "The configuration",
      mimeType: "application/json",
      annotations: { audience: ["user"], priority: 0.5 },
      icons: [{ src: "https://example.com/c.png" }],
      _meta: { x: 1 },
      size: 120,
    });
  });

  it("takes the fallback name and keeps the descriptor minimal", () => {
    const resource = compiled(defineResource({ uri: "file:///tmp/a.txt", read: () => "" }), "a");
    expect(resource.descriptor).toEqual({ uri: "file:///tmp/a.txt", name: "a" });
  });

  it("rejects a uri without a scheme", () => {
    const error = definitionError(() => defineResource({ name: "r", uri: "app", read: () => "" }));
    expect(error.problems).toEqual([
      'uri "app" is not a URI: it needs a scheme, such as "config://app" or "file:///path"',
    ]);
    expect(error.message).toBe(
      'Resource "r" is invalid:\n  - uri "app" is not a URI: it needs a scheme, such as "config://app" or "file:///path"',
    );
  });

  it("rejects a uri that the URL parser refuses", () => {
    const error = definitionError(() =>
      defineResource({ name: "r", uri: "http://exa mple.com", read: () => "" }),
    );
    expect(error.problems).toEqual(['uri "http://exa mple.com" is not a valid URI']);
  });

  it("needs exactly one of uri and uriTemplate, and a read function", () => {
    const both = definitionError(() =>
      defineResource({ name: "r", uri: "a://b", uriTemplate: "a://{b}", read: () => "" } as never),
    );
    expect(both.problems).toEqual([
      'give exactly one of uri ("config://app") or uriTemplate ("users://{id}")',
    ]);
    const neither = definitionError(() => defineResource({ name: "r" } as never));
    expect(neither.problems).toEqual([
      "read is missing: add read: ({ uri, params }, ctx) => contents",
      'give exactly one of uri ("config://app") or uriTemplate ("users://{id}")',
    ]);
  });

  it("rejects an empty name", () => {
    const error = definitionError(() =>
      defineResource({ name: " ", uri: "config://app", read: () => "" }),
    );
    expect(error.problems).toEqual(["name must be a non-empty string"]);
  });

  it("allows complete only on templates", () => {
    const error = definitionError(() =>
      defineResource({ name: "r", uri: "config://app", complete: {}, read: () => "" } as never),
    );
    expect(error.problems).toEqual([
      "complete is only for URI templates; a fixed uri has no variables to complete",
    ]);
  });
});

describe("defineResource: templates", () => {
  it("builds the template descriptor and matches URIs", () => {
    const resource = compiled(
      defineResource({
        name: "user",
        uriTemplate: "users://{id}/profile",
        mimeType: "application/json",
        description: "A user",
        read: ({ params }) => ({ id: params.id }),
      }),
    );
    expect(resource.uri).toBeUndefined();
    expect(resource.descriptor).toEqual({
      uriTemplate: "users://{id}/profile",
      name: "user",
      description: "A user",
      mimeType: "application/json",
    });
    expect(resource.template?.variables).toEqual(["id"]);
    expect(resource.template?.match("users://42/profile")).toEqual({ id: "42" });
  });

  it("passes uri and params to read", async () => {
    let seen: unknown;
    const resource = compiled(
      defineResource({
        uriTemplate: "users://{id}",
        read: (request) => {
          seen = request;
          return "x";
        },
      }),
    );
    await resource.read("users://7", { id: "7" }, ctx);
    expect(seen).toEqual({ uri: "users://7", params: { id: "7" } });
  });

  it("reports template syntax errors as definition problems", () => {
    const error = definitionError(() =>
      defineResource({ name: "r", uriTemplate: "users://{id", read: () => "" }),
    );
    expect(error.problems).toEqual(["unbalanced braces in URI template users://{id"]);
  });

  it("requires complete keys to be template variables", () => {
    const error = definitionError(() =>
      defineResource({
        name: "r",
        uriTemplate: "users://{org}/{id}",
        complete: { org: ["acme"], user: ["x"] } as never,
        read: () => "",
      }),
    );
    expect(error.problems).toEqual([
      "complete.user does not match any template variable (org, id)",
    ]);
  });

  it("keeps its completers", () => {
    const orgs = ["acme", "globex"];
    const resource = compiled(
      defineResource({ uriTemplate: "users://{org}", complete: { org: orgs }, read: () => "" }),
    );
    expect(resource.complete).toEqual({ org: orgs });
  });
});

describe("defineResource: read results", () => {
  it("turns a string into text/plain, or the definition's mime type", async () => {
    expect(await readFixed("hello")).toEqual({
      contents: [{ uri: "config://app", mimeType: "text/plain", text: "hello" }],
    });
    expect(await readFixed("# Hi", "text/markdown")).toEqual({
      contents: [{ uri: "config://app", mimeType: "text/markdown", text: "# Hi" }],
    });
  });

  it("turns bytes into a base64 blob", async () => {
    expect(await readFixed(new Uint8Array([1, 2, 3, 4]))).toEqual({
      contents: [{ uri: "config://app", mimeType: "application/octet-stream", blob: "AQIDBA==" }],
    });
    expect(await readFixed(Buffer.from("hi"), "image/x-icon")).toEqual({
      contents: [{ uri: "config://app", mimeType: "image/x-icon", blob: "aGk=" }],
    });
  });

  it("completes a {text} or {blob} item with the uri and mime type", async () => {
    expect(await readFixed({ text: "a" })).toEqual({
      contents: [{ uri: "config://app", text: "a" }],
    });
    expect(await readFixed({ text: "a" }, "text/csv")).toEqual({
      contents: [{ uri: "config://app", text: "a", mimeType: "text/csv" }],
    });
    expect(await readFixed({ blob: "AA==", mimeType: "image/png" }, "text/csv")).toEqual({
      contents: [{ uri: "config://app", blob: "AA==", mimeType: "image/png" }],
    });
    expect(await readFixed({ uri: "config://app/part", text: "p" })).toEqual({
      contents: [{ uri: "config://app/part", text: "p" }],
    });
  });

  it("takes an array of items", async () => {
    expect(
      await readFixed([{ text: "one" }, { uri: "config://app#2", blob: "AA==" }], "text/plain"),
    ).toEqual({
      contents: [
        { uri: "config://app", text: "one", mimeType: "text/plain" },
        { uri: "config://app#2", blob: "AA==", mimeType: "text/plain" },
      ],
    });
  });

  it("takes a full result, completing its items and keeping _meta", async () => {
    expect(
      await readFixed({ contents: [{ text: "x" }, "plain"], _meta: { etag: "1" } }, "text/x"),
    ).toEqual({
      contents: [
        { uri: "config://app", text: "x", mimeType: "text/x" },
        { uri: "config://app", text: "plain", mimeType: "text/x" },
      ],
      _meta: { etag: "1" },
    });
  });

  it("turns a plain object into JSON text", async () => {
    expect(await readFixed({ debug: true, level: 3 })).toEqual({
      contents: [
        { uri: "config://app", mimeType: "application/json", text: '{"debug":true,"level":3}' },
      ],
    });
    expect(await readFixed({ a: 1 }, "application/vnd.app+json")).toEqual({
      contents: [{ uri: "config://app", mimeType: "application/vnd.app+json", text: '{"a":1}' }],
    });
    expect(await readFixed(["a", "b"])).toEqual({
      contents: [{ uri: "config://app", mimeType: "application/json", text: '["a","b"]' }],
    });
  });

  it("refuses, naming the resource, a value JSON cannot hold", async () => {
    const instead = "return a string, bytes, { text } or { blob } items, or { contents }";
    for (const [value, what] of [
      [undefined, "nothing"],
      [() => "text", "a function"],
      [Symbol("s"), "a symbol"],
      [10n, "a bigint that cannot be sent as JSON (Do not know how to serialize a BigInt)"],
    ] as const) {
      const error = await jsonRpcError(readFixed(value));
      expect([error.code, error.message]).toEqual([
        -32603,
        `Resource "config://app" read returned ${what}; ${instead}`,
      ]);
    }
  });

  it("refuses, naming the resource, what JSON would send as {}: a Set, a Promise, an Error", async () => {
    const error = await jsonRpcError(readFixed({ flags: new Set(["beta"]) }));
    expect([error.code, error.message]).toEqual([
      -32603,
      'Resource "config://app" read returned an object holding a Set at flags, which JSON would send as {} and lose its values; put [...set] (an array) there instead',
    ]);
    const loadFlags = async () => ["beta"];
    const unawaited = await jsonRpcError(readFixed({ flags: loadFlags() }));
    expect([unawaited.code, unawaited.message]).toEqual([
      -32603,
      'Resource "config://app" read returned an object holding a Promise at flags, which JSON would send as {} and lose what it resolves to; await it and put what it resolves to there',
    ]);
    const failed = await jsonRpcError(readFixed({ flags: new Error("no flags") }));
    expect([failed.code, failed.message]).toEqual([
      -32603,
      'Resource "config://app" read returned an object holding an Error at flags, which JSON would send as {} and lose its message; put error.message there instead, or throw the error',
    ]);
  });

  it("uses the requested uri for a template's contents", async () => {
    const resource = compiled(
      defineResource({ uriTemplate: "users://{id}", read: ({ params }) => `user ${params.id}` }),
    );
    expect(await resource.read("users://9", { id: "9" }, ctx)).toEqual({
      contents: [{ uri: "users://9", mimeType: "text/plain", text: "user 9" }],
    });
  });
});

describe("defineResource: types", () => {
  it("extracts template variables", () => {
    expectTypeOf<TemplateVariables<"users://{id}/posts/{postId}">>().toEqualTypeOf<
      "id" | "postId"
    >();
    expectTypeOf<TemplateVariables<"files://{+path}">>().toEqualTypeOf<"path">();
    expectTypeOf<TemplateVariables<"search://q{?q,limit}">>().toEqualTypeOf<"q" | "limit">();
    expectTypeOf<TemplateVariables<"docs://p{#frag}">>().toEqualTypeOf<"frag">();
    expectTypeOf<TemplateVariables<"files://f{.ext}">>().toEqualTypeOf<"ext">();
    expectTypeOf<TemplateVariables<"files://r{/a,b}">>().toEqualTypeOf<"a" | "b">();
    expectTypeOf<TemplateVariables<"search://q{?q}{&page}">>().toEqualTypeOf<"q" | "page">();
    expectTypeOf<TemplateVariables<"a://{list*}/{short:3}">>().toEqualTypeOf<"list" | "short">();
    expectTypeOf<TemplateVariables<"config://app">>().toBeNever();
  });

  it("types read params and complete keys from the template", () => {
    defineResource({
      uriTemplate: "repos://{owner}/{repo}{?ref}",
      complete: { owner: ["me"] },
      read: ({ uri, params }) => {
        expectTypeOf(uri).toEqualTypeOf<string>();
        expectTypeOf(params).toEqualTypeOf<{ owner: string; repo: string; ref: string }>();
        return "";
      },
    });
    defineResource({
      uri: "config://app",
      read: ({ params }) => {
        expectTypeOf(params).toEqualTypeOf<Record<string, never>>();
        return "";
      },
    });
    expect(() =>
      // @ts-expect-error "org" is not a variable of the template (no overload matches)
      defineResource({
        name: "repos",
        uriTemplate: "repos://{owner}",
        complete: { org: ["me"] },
        read: () => "",
      }),
    ).toThrow("complete.org does not match any template variable (owner)");
  });
});
