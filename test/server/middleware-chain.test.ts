/**
 * The request pipeline's chain, through the server's own entry for a
 * 2026-07-28 request (`serveRequest`): order, early returns, replaced
 * arguments (validated again), changed results, throws, `ctx.locals`, and
 * what each kind's result becomes. Folder middleware through the real CLI
 * and both eras are in test/eras/middleware.test.ts.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createServer,
  defineMiddleware,
  definePrompt,
  defineResource,
  defineTool,
  encodeMessage,
  type Middleware,
} from "../../src/index.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function serverWith(middleware: Middleware[]) {
  return createServer({ name: "chain", version: "1.0.0", middleware }).add(
    defineTool({
      name: "echo",
      description: "Echo",
      input: { message: z.string() },
      handler: ({ message }, ctx) => `${message}${ctx.locals.suffix ?? ""}`,
    }),
    definePrompt({
      name: "greet",
      arguments: { who: z.string() },
      get: ({ who }) => `Hello, ${who}`,
    }),
    defineResource({ name: "today", uri: "memo://today", read: () => "nothing planned" }),
  );
}

async function call(server: ReturnType<typeof serverWith>, method: string, params: object) {
  const response = await server.serveRequest(
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } },
    { notify() {} },
  );
  if (!response) throw new Error("no response");
  // The result travels encoded once; read it as the client would.
  const sent = JSON.parse(encodeMessage(response));
  return "error" in sent ? { error: sent.error } : sent.result;
}

const echo = (message: unknown) => ({ name: "echo", arguments: { message } });

describe("a chain of middleware", () => {
  it("runs root first, around the handler, and hands the handler the context they saw", async () => {
    const seen: string[] = [];
    const server = serverWith([
      async (ctx, next) => {
        seen.push(`outer ${ctx.definition.kind} ${ctx.definition.name}`);
        ctx.locals.suffix = "!";
        const result = await next();
        seen.push("outer after");
        return result;
      },
      async (_ctx, next) => {
        seen.push("inner");
        return next();
      },
    ]);
    expect(await call(server, "tools/call", echo("hi"))).toMatchObject({
      content: [{ type: "text", text: "hi!" }],
    });
    expect(seen).toEqual(["outer tool echo", "inner", "outer after"]);
  });

  it("makes what a middleware returns early the result, as a handler's return", async () => {
    const server = serverWith([() => "admins only"]);
    expect(await call(server, "tools/call", echo("hi"))).toMatchObject({
      content: [{ type: "text", text: "admins only" }],
    });
    expect(await call(server, "prompts/get", { name: "greet", arguments: { who: "Ada" } })).toEqual(
      expect.objectContaining({
        messages: [{ role: "user", content: { type: "text", text: "admins only" } }],
      }),
    );
    expect(await call(server, "resources/read", { uri: "memo://today" })).toMatchObject({
      contents: [{ uri: "memo://today", text: "admins only" }],
    });
  });

  it("tells a resource's middleware the URI being read, and a template's variables", async () => {
    const seen: unknown[] = [];
    const server = serverWith([
      (ctx, next) => {
        seen.push([ctx.definition.kind, ctx.uri, ctx.args]);
        return next();
      },
    ]).add(
      defineResource({ name: "note", uriTemplate: "memo://notes/{id}", read: () => "a note" }),
    );
    await call(server, "resources/read", { uri: "memo://today" });
    await call(server, "resources/read", { uri: "memo://notes/7" });
    await call(server, "tools/call", echo("hi"));
    expect(seen).toEqual([
      ["resource", "memo://today", {}],
      ["resource", "memo://notes/7", { id: "7" }],
      ["tool", undefined, { message: "hi" }],
    ]);
  });

  it("validates replaced arguments with the definition's schema", async () => {
    const server = serverWith([
      (ctx, next) => {
        ctx.args = { message: String(ctx.args.message).toUpperCase() };
        return next();
      },
    ]);
    expect(await call(server, "tools/call", echo("hi"))).toMatchObject({
      content: [{ type: "text", text: "HI" }],
    });
    const wrong = serverWith([
      (ctx, next) => {
        ctx.args = { message: 42 };
        return next();
      },
    ]);
    expect(await call(wrong, "tools/call", echo("hi"))).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "echo": message: Invalid input: expected string, received number',
        },
      ],
    });
  });

  it("lets a middleware change the result, and keeps next()'s when it returns nothing", async () => {
    const server = serverWith([
      async (_ctx, next) => {
        await next();
      },
      async (_ctx, next) => {
        const result = (await next()) as { content: { type: string; text: string }[] };
        return { content: [...result.content, { type: "text", text: "checked" }] };
      },
    ]);
    expect(await call(server, "tools/call", echo("hi"))).toMatchObject({
      content: [
        { type: "text", text: "hi" },
        { type: "text", text: "checked" },
      ],
    });
  });

  it("makes a middleware's throw what a handler's throw gives", async () => {
    const server = serverWith([
      () => {
        throw new Error("rate limited: try again in a minute");
      },
    ]);
    expect(await call(server, "tools/call", echo("hi"))).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "rate limited: try again in a minute" }],
    });
    expect(await call(server, "prompts/get", { name: "greet", arguments: { who: "Ada" } })).toEqual(
      {
        error: {
          code: -32603,
          message: "Internal error in prompts/get: rate limited: try again in a minute",
        },
      },
    );
  });

  it("runs the rest once when next() is called twice", async () => {
    let runs = 0;
    const server = serverWith([
      async (_ctx, next) => {
        await next();
        return next();
      },
      (_ctx, next) => {
        runs++;
        return next();
      },
    ]);
    expect(await call(server, "tools/call", echo("hi"))).toMatchObject({
      content: [{ type: "text", text: "hi" }],
    });
    expect(runs).toBe(1);
  });

  it("refuses what is not a middleware, naming what to write", () => {
    expect(() =>
      createServer({
        name: "bad",
        version: "1.0.0",
        middleware: [{} as ReturnType<typeof defineMiddleware>],
      }),
    ).toThrow("middleware: is not a middleware: create it with defineMiddleware");
    expect(() => defineMiddleware({ timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => defineMiddleware({})).toThrow(
      "it does nothing: give run: async (ctx, next) => next(), or what the folder shares (timeoutMs, scopes)",
    );
  });
});
