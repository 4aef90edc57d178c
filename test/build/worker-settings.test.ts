/**
 * How a Worker built by `mcp-dir build --target cloudflare` takes its
 * settings, run by workerd: its token, authorization server and audience from
 * its env bindings, MCP_DIR_REDIS_URL refused, an open server refused unless
 * it is meant to be open, and a listen stream kept past its first request.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIssuer } from "../auth/helpers/issuer.js";
import { runCli } from "../cli/helpers/cli.js";
import { rawRequest } from "../http/helpers.js";
import { builtExample, NO_REDIS, newWorker, stopWorkers } from "./helpers/runtimes.js";

/** Where example-server was built for Workers (once per run: see buildExample). */
let built: string;

beforeAll(async () => {
  built = await builtExample("cloudflare");
});

afterAll(async () => {
  await stopWorkers();
});

describe("a Worker", () => {
  const start = async (bindings: Record<string, string>, folder = built) => {
    const worker = await newWorker(folder, bindings);
    try {
      const url = new URL("/mcp", await worker.ready).href;
      return { url, host: new URL(url).host, dispose: () => worker.dispose() };
    } catch (error) {
      await worker.dispose();
      throw error;
    }
  };

  // workerd lets no request touch an object another request made (the server is made at the first).
  it("keeps a listen stream opened after its first request", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-dir-worker-listen-"));
    try {
      await mkdir(join(dir, "resources"));
      await writeFile(join(dir, "resources", "hello.md"), "# Hello\n");
      await writeFile(
        join(dir, "mcp-dir.config.mjs"),
        'export default { name: "listening", version: "1.0.0", http: { keepAliveMs: 20 } };\n',
      );
      const out = join(dir, "out");
      expect((await runCli(["build", dir, "--target", "cloudflare", "--out", out])).code).toBe(0);
      const worker = await start({ MCP_DIR_AUTH_TOKEN: "t" }, out);
      try {
        const envelope = {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        };
        const post = (id: number, method: string, params: Record<string, unknown>) =>
          fetch(worker.url, {
            method: "POST",
            headers: {
              authorization: "Bearer t",
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-protocol-version": "2026-07-28",
              "mcp-method": method,
            },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id,
              method,
              params: { ...params, _meta: envelope },
            }),
          });
        expect((await post(1, "resources/list", {})).status).toBe(200);
        const listen = await post(2, "subscriptions/listen", { notifications: {} });
        // Read until its keep-alive comes, or the stream ends: an error would end it.
        const reader = listen.body?.getReader();
        const decoder = new TextDecoder();
        let text = "";
        while (reader && !text.includes(": keep-alive")) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
        }
        await reader?.cancel();
        const [acknowledged, ...after] = text.split("\n\n").filter(Boolean);
        expect(acknowledged).toBe(
          `data: ${JSON.stringify({
            jsonrpc: "2.0",
            method: "notifications/subscriptions/acknowledged",
            params: { _meta: { "io.modelcontextprotocol/subscriptionId": 2 }, notifications: {} },
          })}`,
        );
        // Every 20 ms: a busy machine can hand the test more than one in a read.
        expect(after.length).toBeGreaterThan(0);
        expect(new Set(after)).toEqual(new Set([": keep-alive"]));
      } finally {
        await worker.dispose();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses MCP_DIR_REDIS_URL in its env bindings, saying it does not connect to Redis", async () => {
    const worker = await start({
      MCP_DIR_AUTH_TOKEN: "worker-token",
      MCP_DIR_REDIS_URL: "redis://r:6379",
    });
    try {
      const response = await rawRequest(worker.url, {
        method: "GET",
        headers: { host: worker.host },
      });
      expect([response.status, JSON.parse(response.body).error.message]).toEqual([
        503,
        `Service Unavailable: ${NO_REDIS}`,
      ]);
    } finally {
      await worker.dispose();
    }
  });

  it("reads its token from its env bindings", async () => {
    const worker = await start({ MCP_DIR_AUTH_TOKEN: "worker-token" });
    try {
      const anonymous = await rawRequest(worker.url, {
        method: "GET",
        headers: { host: worker.host },
      });
      expect(anonymous.status).toBe(401);
    } finally {
      await worker.dispose();
    }
  });

  it("reads its authorization server and audience from its env bindings, and verifies a real token", async () => {
    const issuer = await startIssuer();
    const audience = "https://mcp.example.com/mcp";
    const worker = await start({
      MCP_DIR_AUTH_ISSUER: issuer.url,
      MCP_DIR_AUTH_AUDIENCE: audience,
    });
    try {
      const metadata = await rawRequest(worker.url, {
        method: "GET",
        path: "/.well-known/oauth-protected-resource/mcp",
        headers: { host: worker.host },
      });
      expect(JSON.parse(metadata.body)).toEqual({
        resource: audience,
        authorization_servers: [issuer.url],
        bearer_methods_supported: ["header"],
        resource_name: "example-server",
      });
      const list = (token: string) =>
        rawRequest(worker.url, {
          headers: {
            host: worker.host,
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/list",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/list",
            params: {
              _meta: {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
              },
            },
          }),
        });
      const listed = await list(await issuer.token(audience, ["mcp"]));
      expect(listed.status).toBe(200);
      expect(JSON.parse(listed.body).result.tools.length).toBeGreaterThan(0);
      const elsewhere = await list(await issuer.token("https://other.example.com/mcp", ["mcp"]));
      expect(elsewhere.status).toBe(401);
    } finally {
      await worker.dispose();
      await issuer.close();
    }
  });

  it("refuses to serve anyone without a token, unless told it is meant to be open", async () => {
    const closed = await start({});
    try {
      const response = await rawRequest(closed.url, {
        method: "GET",
        path: "/health",
        headers: { host: closed.host },
      });
      expect([response.status, JSON.parse(response.body)]).toEqual([
        503,
        {
          jsonrpc: "2.0",
          error: {
            code: -32000,
            message:
              'Service Unavailable: this Worker would serve every tool to anyone who can reach it. Set MCP_DIR_AUTH_TOKEN (npx wrangler secret put MCP_DIR_AUTH_TOKEN) to require a bearer token, or MCP_DIR_AUTH_ISSUER and MCP_DIR_AUTH_AUDIENCE under [vars] to accept OAuth access tokens, or set MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE = "1" under [vars] in wrangler.toml if it is meant to be open',
          },
        },
      ]);
    } finally {
      await closed.dispose();
    }
    const open = await start({ MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE: "1" });
    try {
      const response = await rawRequest(open.url, {
        method: "GET",
        path: "/health",
        headers: { host: open.host },
      });
      expect(response.status).toBe(200);
    } finally {
      await open.dispose();
    }
  });
});
