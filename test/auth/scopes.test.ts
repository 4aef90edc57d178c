/**
 * Scopes in the request pipeline, through the server's own entry for a
 * 2026-07-28 request (`serveRequest` with the caller a transport verified):
 * lists show only what the caller may use, a call it may not make is refused
 * naming every scope it needs, `ctx.auth` reaches the handler, list pages are
 * cached per set of scopes, and a requestState stays with its caller. Folder
 * scopes are given as registry sources (the loader's `_middleware.ts` files
 * come to the registry the same way). Over real HTTP: test/auth/*-http tests.
 */
import { describe, expect, it } from "vitest";
import {
  type AuthInfo,
  createServer,
  defineMiddleware,
  definePrompt,
  defineResource,
  defineTool,
  encodeMessage,
} from "../../src/index.js";
import { scopedServer } from "./helpers/scoped-server.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};

function caller(subject: string, scopes: string[]): AuthInfo {
  return { subject, clientId: "app", scopes, expiresAt: undefined, claims: { sub: subject } };
}

async function call(
  server: ReturnType<typeof createServer>,
  method: string,
  params: object,
  auth?: AuthInfo,
) {
  const response = await server.serveRequest(
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } },
    auth === undefined ? { notify() {} } : { notify() {}, auth },
  );
  if (!response) throw new Error("no response");
  const sent = JSON.parse(encodeMessage(response));
  return "error" in sent ? { error: sent.error } : sent.result;
}

const names = (result: Record<string, unknown>, kind: string) =>
  (result[kind] as { name: string }[]).map((item) => item.name);

describe("scopes", () => {
  it("sum up what the server declares, and what every definition shares", () => {
    expect(scopedServer().registry.scopes()).toEqual({
      declared: ["admin", "deploy", "mcp", "notes:read"],
      shared: ["mcp"],
    });
  });

  it("list only what the caller's scopes allow; without a verified caller, everything", async () => {
    const server = scopedServer();
    expect(names(await call(server, "tools/list", {}), "tools")).toEqual([
      "admin_deploy",
      "confirm",
      "echo",
      "notes",
    ]);
    const basic = caller("ann", ["mcp"]);
    expect(names(await call(server, "tools/list", {}, basic), "tools")).toEqual(["echo"]);
    const reader = caller("ann", ["mcp", "notes:read"]);
    expect(names(await call(server, "tools/list", {}, reader), "tools")).toEqual([
      "confirm",
      "echo",
      "notes",
    ]);
    expect(names(await call(server, "prompts/list", {}, basic), "prompts")).toEqual([]);
    expect(names(await call(server, "prompts/list", {}, reader), "prompts")).toEqual(["secret"]);
    expect(names(await call(server, "resources/list", {}, basic), "resources")).toEqual(["open"]);
    const admin = caller("root", ["mcp", "admin", "deploy"]);
    expect(names(await call(server, "tools/list", {}, admin), "tools")).toEqual([
      "admin_deploy",
      "echo",
    ]);
    // A token with none of the server's own scopes sees nothing that needs them.
    expect(names(await call(server, "tools/list", {}, caller("x", [])), "tools")).toEqual([]);
  });

  it("cache list pages per set of scopes that matter, not per token", () => {
    const server = scopedServer();
    const page = (auth: AuthInfo) =>
      server.lists.page("tools", "2026-07-28", undefined, 100, undefined, { auth });
    const first = page(caller("ann", ["mcp", "notes:read"]));
    expect(page(caller("bob", ["notes:read", "mcp", "profile", "email"]))).toBe(first);
    expect(page(caller("cid", ["mcp"]))).not.toBe(first);
  });

  it("mark a list the caller's scopes decide private, so no shared cache serves it to another caller", async () => {
    const server = scopedServer({ cacheTtlMs: 60_000 });
    const reader = caller("ann", ["mcp", "notes:read"]);
    for (const method of [
      "tools/list",
      "prompts/list",
      "resources/list",
      "resources/templates/list",
    ]) {
      expect(await call(server, method, {}, reader), method).toMatchObject({
        ttlMs: 60_000,
        cacheScope: "private",
      });
      expect(await call(server, method, {}), method).toMatchObject({ cacheScope: "public" });
    }
    // A template that lists its instances is listed afresh each time, by the same rule.
    const listing = createServer({ name: "listing", version: "1.0.0" });
    listing.registry.update(
      new Map([
        [
          "resources/users.ts",
          [
            {
              definition: defineResource({
                uriTemplate: "users://{id}",
                scopes: ["users:read"],
                list: () => [{ uri: "users://ann" }],
                read: ({ params }) => params.id,
              }),
              fallbackName: "users",
            },
          ],
        ],
      ]),
    );
    const users = caller("ann", ["users:read"]);
    expect(await call(listing, "resources/list", {}, users)).toMatchObject({
      resources: [{ uri: "users://ann" }],
      cacheScope: "private",
    });
    expect(await call(listing, "resources/list", {})).toMatchObject({ cacheScope: "public" });
    // Where no definition needs a scope, every caller sees the same list.
    const open = createServer({ name: "open", version: "1.0.0" });
    open.registry.update(
      new Map([
        [
          "tools/echo.ts",
          [
            {
              definition: defineTool({ description: "Echoes", handler: () => "ok" }),
              fallbackName: "echo",
            },
          ],
        ],
      ]),
    );
    expect(await call(open, "tools/list", {}, users)).toMatchObject({ cacheScope: "public" });
  });

  it("re-list when only scopes change: a folder's or a definition's, its pages dropped and list_changed told", async () => {
    const server = scopedServer();
    const changes: { tools: boolean; prompts: boolean }[] = [];
    server.registry.onChange((change) => changes.push(change));
    const deployer = caller("root", ["mcp", "admin", "deploy"]);
    const tools = async () => names(await call(server, "tools/list", {}, deployer), "tools");
    expect(await tools()).toEqual(["admin_deploy", "echo"]);
    // tools/admin/ now also needs "ops": the same descriptors, another audience.
    server.registry.replaceSource("tools/admin/_middleware.ts", [
      { definition: defineMiddleware({ scopes: ["admin", "ops"] }) },
    ]);
    expect(changes).toMatchObject([{ tools: true, prompts: false }]);
    expect(await tools()).toEqual(["echo"]);
    server.registry.replaceSource("tools/admin/_middleware.ts", [
      { definition: defineMiddleware({ scopes: ["admin"] }) },
    ]);
    expect(await tools()).toEqual(["admin_deploy", "echo"]);
    // A prompt that stops needing a scope is one more prompt for a caller without it.
    const basic = caller("ann", ["mcp"]);
    expect(names(await call(server, "prompts/list", {}, basic), "prompts")).toEqual([]);
    server.registry.replaceSource("prompts/secret.ts", [
      { definition: definePrompt({ get: () => "secret" }), fallbackName: "secret" },
    ]);
    expect(changes.at(-1)).toMatchObject({ tools: false, prompts: true });
    expect(names(await call(server, "prompts/list", {}, basic), "prompts")).toEqual(["secret"]);
  });

  it("refuse a call the token lacks scopes for, naming every scope it needs", async () => {
    const server = scopedServer();
    const basic = caller("ann", ["mcp", "admin"]);
    expect(await call(server, "tools/call", { name: "admin_deploy" }, basic)).toEqual({
      error: {
        code: -32003,
        message:
          'Insufficient scope: tool "admin_deploy" needs the scopes admin deploy mcp, and the access token lacks deploy; authorize again asking for them',
        data: { requiredScopes: ["admin", "deploy", "mcp"] },
      },
    });
    expect(await call(server, "prompts/get", { name: "secret" }, basic)).toMatchObject({
      error: { code: -32003, data: { requiredScopes: ["mcp", "notes:read"] } },
    });
    expect(await call(server, "resources/read", { uri: "memo://plan" }, basic)).toMatchObject({
      error: {
        code: -32003,
        message:
          'Insufficient scope: resource "memo://plan" needs the scopes mcp notes:read, and the access token lacks notes:read; authorize again asking for them',
      },
    });
    const root = caller("root", ["mcp", "admin", "deploy"]);
    expect(await call(server, "tools/call", { name: "admin_deploy" }, root)).toMatchObject({
      content: [{ type: "text", text: "deployed by root" }],
    });
  });

  it("name in a not-found error only a listed URI the caller may read", async () => {
    const server = scopedServer();
    const near = "memo://pl%61n"; // memo://plan, its "a" percent-encoded
    expect(await call(server, "resources/read", { uri: near }, caller("ann", ["mcp"]))).toEqual({
      error: { code: -32602, message: `Resource not found: ${near}`, data: { uri: near } },
    });
    const reader = caller("ann", ["mcp", "notes:read"]);
    expect(await call(server, "resources/read", { uri: near }, reader)).toEqual({
      error: {
        code: -32602,
        message: `Resource not found: ${near}; did you mean memo://plan? A URI is read as it is listed, its percent-encoding included`,
        data: { uri: near, listedUri: "memo://plan" },
      },
    });
  });

  it("give the handler the verified caller as ctx.auth, and nothing without one", async () => {
    const server = scopedServer();
    const reader = caller("ann", ["mcp", "notes:read"]);
    const seen = await call(server, "tools/call", { name: "notes" }, reader);
    expect(JSON.parse(seen.content[0].text)).toEqual(reader);
    const open = await call(server, "tools/call", { name: "notes" });
    expect(open.content[0].text).toBe("null");
  });

  it("keep a requestState with the caller it was issued to", async () => {
    const server = scopedServer();
    const ann = caller("ann", ["mcp", "notes:read"]);
    const asked = await call(server, "tools/call", { name: "confirm" }, ann);
    expect(asked.resultType).toBe("input_required");
    const answers = {
      requestState: asked.requestState,
      inputResponses: { "elicitation-1": { action: "accept", content: { ok: true } } },
    };
    const bob = caller("bob", ["mcp", "notes:read"]);
    expect(await call(server, "tools/call", { name: "confirm", ...answers }, bob)).toEqual({
      error: {
        code: -32602,
        message:
          "Invalid params: requestState was issued to another caller (the access token names someone else); send this request without requestState and inputResponses",
      },
    });
    expect(await call(server, "tools/call", { name: "confirm", ...answers }, ann)).toMatchObject({
      content: [{ type: "text", text: "accept" }],
    });
  });

  it("are refused when they are not scope names", () => {
    expect(() =>
      defineTool({ name: "t", description: "T", scopes: ["files write"], handler: () => "" }),
    ).toThrow(
      'Tool "t" is invalid:\n  - scopes must hold scope names without spaces, quotes or backslashes (OAuth scope tokens), not "files write"',
    );
    expect(() => definePrompt({ name: "p", scopes: "admin" as never, get: () => "" })).toThrow(
      'Prompt "p" is invalid:\n  - scopes must be a list of scope names, such as ["files:write"], not "admin"',
    );
    expect(() => defineMiddleware({ scopes: [""] })).toThrow(
      'The middleware is invalid:\n  - scopes must hold scope names without spaces, quotes or backslashes (OAuth scope tokens), not ""',
    );
  });
});
