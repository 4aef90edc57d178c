/**
 * Browser pages of an accepted Origin: a preflight answered before any token
 * is asked for, and responses a page may read (the session id, the OAuth
 * challenge). A page of another site gets neither. Real Chromium checks the
 * whole exchange as a browser enforces it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchHandler } from "../../src/index.js";
import { closeBrowsers, launchChromium } from "../views/helpers/chromium.js";
import { INITIALIZE, type Running, rawRequest, startFixture } from "./helpers.js";

const APP = "http://app.example.test";
const TOKEN = "cors-secret";

let running: Running;
beforeAll(async () => {
  running = await startFixture({ allowedOrigins: [APP], authToken: TOKEN });
});
afterAll(async () => {
  await Promise.all([running.serving.close(), closeBrowsers()]);
});

const CORS = {
  "access-control-allow-origin": APP,
  "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
  vary: "Origin",
};

function corsOf(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => name.startsWith("access-control-") || name === "vary",
    ),
  );
}

describe("CORS at the HTTP door", () => {
  it("answers an accepted page's preflight without a token, allowing the headers asked for", async () => {
    const response = await rawRequest(running.url, {
      method: "OPTIONS",
      headers: {
        origin: APP,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,mcp-protocol-version",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe("POST, GET, DELETE, OPTIONS");
    expect(corsOf(response.headers)).toEqual({
      ...CORS,
      "access-control-allow-methods": "POST, GET, DELETE",
      "access-control-allow-headers": "authorization,content-type,mcp-protocol-version",
      "access-control-max-age": "7200",
    });
  });

  it("lets an accepted page read a response, a refusal's challenge included", async () => {
    const headers = {
      origin: APP,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const refused = await rawRequest(running.url, { headers, body: JSON.stringify(INITIALIZE) });
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toMatch(/^Bearer /);
    expect(corsOf(refused.headers)).toEqual(CORS);
    const opened = await rawRequest(running.url, {
      headers: { ...headers, authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(INITIALIZE),
    });
    expect(opened.status).toBe(200);
    expect(opened.headers["mcp-session-id"]).toMatch(/^[\x21-\x7e]+$/);
    expect(corsOf(opened.headers)).toEqual(CORS);
  });

  it("gives a page of another site a 403 and nothing to read, and a caller without Origin no CORS", async () => {
    const preflight = await rawRequest(running.url, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(corsOf(preflight.headers)).toEqual({});
    const plain = await rawRequest(running.url, {
      path: "/health",
      method: "GET",
    });
    expect(plain.status).toBe(200);
    expect(corsOf(plain.headers)).toEqual({});
  });

  it("lets a page read the protected-resource metadata, and preflights a session-less endpoint for POST", async () => {
    const handle = createFetchHandler(running.server, { allowedOrigins: [APP] });
    const preflight = await handle(
      new Request("http://127.0.0.1/mcp", {
        method: "OPTIONS",
        headers: { origin: APP, "access-control-request-method": "POST" },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST");
    expect(preflight.headers.get("access-control-allow-origin")).toBe(APP);
    const health = await handle(
      new Request("http://127.0.0.1/health", { headers: { origin: APP } }),
    );
    expect([health.status, health.headers.get("access-control-allow-origin")]).toEqual([200, APP]);
  });
});

describe("CORS in Chromium", () => {
  // A page on this machine, as a browser client or an inspector in development is: Chromium
  // asks the user before a page of any other address reaches a loopback one.
  it("lets a page of another loopback origin open a session and list the tools", async () => {
    const app = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>app</title>");
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    const { port } = app.address() as AddressInfo;
    const browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(`http://localhost:${port}/`);
    const seen = await page.evaluate(
      async ({ url, token, initialize }) => {
        const headers = {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        };
        const opened = await fetch(url, {
          method: "POST",
          headers,
          body: JSON.stringify(initialize),
        });
        const session = opened.headers.get("mcp-session-id") ?? "";
        const listed = await fetch(url, {
          method: "POST",
          headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        const { result } = (await listed.json()) as { result: { tools: { name: string }[] } };
        return { session: session.length > 0, tools: result.tools.map((tool) => tool.name) };
      },
      { url: running.url, token: TOKEN, initialize: INITIALIZE },
    );
    app.close();
    expect(seen.session).toBe(true);
    expect(seen.tools).toContain("echo");
  });
});
