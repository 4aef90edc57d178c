/**
 * A server whose definitions need scopes: the server's own middleware needs
 * "mcp" of everything; tools/admin/ (its `_middleware.ts`, given as a
 * registry source as the loader gives it) adds "admin", and its deploy tool
 * "deploy"; notes, confirm (which asks for input), a prompt and a resource
 * need "notes:read"; echo and one resource need nothing more.
 */
import { z } from "zod";
import {
  createServer,
  defineMiddleware,
  definePrompt,
  defineResource,
  defineTool,
  type ServerOptions,
} from "../../../src/index.js";
import { postStateless } from "../../helpers/stateless-post.js";

export function scopedServer(options: Partial<ServerOptions> = {}) {
  const server = createServer({
    name: "scoped",
    version: "1.0.0",
    middleware: [defineMiddleware({ scopes: ["mcp"] })],
    ...options,
  });
  server.registry.update(
    new Map([
      ["tools/admin/_middleware.ts", [{ definition: defineMiddleware({ scopes: ["admin"] }) }]],
      [
        "tools/admin/deploy.ts",
        [
          {
            definition: defineTool({
              description: "Deploys",
              scopes: ["deploy"],
              handler: (_args, ctx) => `deployed by ${ctx.auth?.subject}`,
            }),
            fallbackName: "admin_deploy",
          },
        ],
      ],
      [
        "tools/notes.ts",
        [
          {
            definition: defineTool({
              description: "Reads notes",
              scopes: ["notes:read"],
              handler: (_args, ctx) => JSON.stringify(ctx.auth ?? null),
            }),
            fallbackName: "notes",
          },
          {
            definition: defineTool({
              name: "confirm",
              description: "Asks first",
              scopes: ["notes:read"],
              handler: async (_args, ctx) => {
                const answer = await ctx.elicit({ message: "Sure?", schema: { ok: z.boolean() } });
                return answer.action;
              },
            }),
          },
        ],
      ],
      [
        "tools/echo.ts",
        [
          {
            definition: defineTool({
              description: "Echoes",
              input: { text: z.string() },
              handler: ({ text }) => text,
            }),
            fallbackName: "echo",
          },
        ],
      ],
      [
        "prompts/secret.ts",
        [
          {
            definition: definePrompt({ scopes: ["notes:read"], get: () => "secret" }),
            fallbackName: "secret",
          },
        ],
      ],
      [
        "resources/plan.ts",
        [
          {
            definition: defineResource({
              uri: "memo://plan",
              scopes: ["notes:read"],
              read: () => "the plan",
            }),
            fallbackName: "plan",
          },
          {
            definition: defineResource({ uri: "memo://open", read: () => "open" }),
            fallbackName: "open",
          },
        ],
      ],
    ]),
  );
  return server;
}

/** A 2026-07-28 tools/call of "echo" at `url` with this bearer token: its status, challenge and body. */
export async function callEcho(url: string, token: string) {
  const response = await postStateless(url, {
    id: 1,
    method: "tools/call",
    name: "echo",
    params: { name: "echo", arguments: { text: "hi" } },
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate"),
    body: (await response.json()) as Record<string, unknown>,
  };
}
