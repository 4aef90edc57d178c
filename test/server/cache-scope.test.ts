/**
 * 2026-07-28 caching hints on lists: "public" lets any client, gateway or
 * proxy serve a cached list to anyone, so a list is public only when every
 * caller is sent the same one. Views (MCP Apps) are offered only to clients
 * that show them: a list they change is "private". Scopes: test/auth/scopes.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  createServer,
  definePrompt,
  defineResource,
  defineTool,
  encodeMessage,
} from "../../src/index.js";
import { UI_EXTENSION, VIEW_MIME_TYPE } from "../../src/protocol/ui.js";
import type { Definition } from "../../src/registry/definition.js";

const PLAIN = { elicitation: { form: {} } };
const SHOWS_VIEWS = { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } };

function serverWith(sources: Record<string, Definition>) {
  const server = createServer({ name: "cache-scope", version: "1.0.0", cacheTtlMs: 60_000 });
  server.registry.update(
    new Map(
      Object.entries(sources).map(([file, definition]) => [
        file,
        [{ definition, fallbackName: file.replace(/^\w+\/|\.\w+$/g, "") }],
      ]),
    ),
  );
  return server;
}

async function list(
  server: ReturnType<typeof createServer>,
  method: string,
  capabilities: object,
): Promise<Record<string, unknown>> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  const response = await server.serveRequest(
    { jsonrpc: "2.0", id: 1, method, params: { _meta: meta } },
    { notify() {} },
  );
  if (!response) throw new Error("no response");
  return JSON.parse(encodeMessage(response)).result;
}

const weather = defineTool({ description: "Tells the weather", handler: () => "Sunny" });
const shownWeather = defineTool({
  description: "Tells the weather, in its view",
  _meta: { ui: { resourceUri: "ui://weather" } },
  handler: () => "Sunny",
});
const view = defineResource({
  uri: "ui://weather",
  mimeType: VIEW_MIME_TYPE,
  read: () => "<!doctype html><p>Sunny</p>",
});
const notes = defineResource({ uri: "notes://today", read: () => "notes" });
const greet = definePrompt({ description: "Greets", get: () => "Hello" });

describe("cacheScope of a 2026-07-28 list", () => {
  it("is public where every caller gets the same list", async () => {
    const server = serverWith({
      "tools/weather.ts": weather,
      "resources/notes.ts": notes,
      "prompts/greet.ts": greet,
    });
    for (const method of ["tools/list", "resources/list", "prompts/list"]) {
      for (const capabilities of [PLAIN, SHOWS_VIEWS]) {
        expect(await list(server, method, capabilities), method).toMatchObject({
          ttlMs: 60_000,
          cacheScope: "public",
        });
      }
    }
  });

  it("is private where views change the list, for clients that show them and clients that do not", async () => {
    const server = serverWith({
      "tools/weather.ts": shownWeather,
      "resources/weather-view.ts": view,
      "resources/notes.ts": notes,
      "prompts/greet.ts": greet,
    });
    const shown = await list(server, "tools/list", SHOWS_VIEWS);
    const bare = await list(server, "tools/list", PLAIN);
    // The same tool, linked to its view only for the client that shows views.
    expect(shown.tools).not.toEqual(bare.tools);
    for (const result of [shown, bare]) expect(result).toMatchObject({ cacheScope: "private" });
    for (const capabilities of [PLAIN, SHOWS_VIEWS]) {
      expect(await list(server, "resources/list", capabilities)).toMatchObject({
        cacheScope: "private",
      });
      // Views change neither the prompts nor the templates.
      expect(await list(server, "prompts/list", capabilities)).toMatchObject({
        cacheScope: "public",
      });
    }
  });
});
