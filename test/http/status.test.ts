/** Raw HTTP against serveHttp: every status code the transport answers, with exact bodies. */
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpHandler } from "../../src/index.js";
import { createFixture } from "./fixtures/server.js";
import {
  expectContinue,
  INITIALIZE,
  openSession,
  PROTOCOL_VERSION,
  postHeaders,
  type Running,
  rawRequest,
  startFixture,
} from "./helpers.js";

const running: Running[] = [];

async function start(options: Parameters<typeof startFixture>[0] = {}): Promise<Running> {
  const started = await startFixture(options);
  running.push(started);
  return started;
}

afterEach(async () => {
  for (const r of running.splice(0)) await r.serving.close();
});

function jsonRpcError(code: number, message: string) {
  return { jsonrpc: "2.0", error: { code, message } };
}

const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
const MISSING_SESSION =
  "Bad Request: Mcp-Session-Id header is required; send initialize first (without the header), then repeat the Mcp-Session-Id it returns on every request";
const UNKNOWN_SESSION =
  "Session not found: it ended or never existed; send initialize again without an Mcp-Session-Id";

describe("200 and 202", () => {
  it("answers initialize with JSON and a visible-ASCII Mcp-Session-Id", async () => {
    const { url, server } = await start();
    const response = await rawRequest(url, {
      headers: postHeaders(),
      body: JSON.stringify(INITIALIZE),
    });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.headers["mcp-session-id"]).toMatch(/^[\x21-\x7E]+$/);
    expect(JSON.parse(response.body)).toMatchObject({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: PROTOCOL_VERSION, serverInfo: { name: "http-fixture" } },
    });
    expect(server.sessionCount).toBe(1);
  });

  it("answers a failed initialize with its error and keeps no session", async () => {
    const { url, server } = await start();
    const response = await rawRequest(url, {
      headers: postHeaders(),
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(response.status).toBe(200);
    expect(response.headers["mcp-session-id"]).toBeUndefined();
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32602,
        message: 'initialize: "protocolVersion" must be a string and is missing',
      },
    });
    expect(server.sessionCount).toBe(0);
  });

  it("answers a notification or a response with 202 and no body", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const notification = await rawRequest(url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }),
    });
    expect(notification).toMatchObject({ status: 202, body: "" });
    const response = await rawRequest(url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify({ jsonrpc: "2.0", id: "s-99", result: {} }),
    });
    expect(response).toMatchObject({ status: 202, body: "" });
  });

  it("accepts a JSON Content-Type with parameters and wildcard Accept ranges", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const response = await rawRequest(url, {
      headers: {
        ...postHeaders(sessionId),
        "content-type": "application/json; charset=utf-8",
        accept: "*/*",
      },
      body: PING,
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("accepts any supported MCP-Protocol-Version, and none at all", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    for (const version of ["2025-03-26", "2025-06-18", undefined]) {
      const headers = postHeaders(sessionId);
      if (version) headers["mcp-protocol-version"] = version;
      else delete headers["mcp-protocol-version"];
      const response = await rawRequest(url, { headers, body: PING });
      expect(response.status).toBe(200);
    }
  });

  it("answers GET /health", async () => {
    const { url } = await start();
    const response = await rawRequest(url, { method: "GET", path: "/health" });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: "ok" });
  });

  it("answers a 2025-03-26 batch with an array", async () => {
    const { url } = await start();
    const sessionId = await openSession(url, "2025-03-26");
    const response = await rawRequest(url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "echo", arguments: { message: "b" } },
        },
      ]),
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "b" }] } },
    ]);
  });
});

describe("400 Bad Request", () => {
  it("refuses a request without Mcp-Session-Id unless it is initialize", async () => {
    const { url } = await start();
    for (const method of ["POST", "GET", "DELETE"]) {
      const response = await rawRequest(url, {
        method,
        headers: { ...postHeaders(), accept: "application/json, text/event-stream" },
        body: method === "POST" ? PING : undefined,
      });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual(jsonRpcError(-32000, MISSING_SESSION));
    }
  });

  it("refuses an unsupported MCP-Protocol-Version, with a session id or without one", async () => {
    const { url } = await start();
    for (const sessionId of [await openSession(url), undefined]) {
      const response = await rawRequest(url, {
        headers: { ...postHeaders(sessionId), "mcp-protocol-version": "1999-01-01" },
        body: PING,
      });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual(
        jsonRpcError(
          -32000,
          'Bad Request: unsupported MCP-Protocol-Version "1999-01-01"; this server speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25',
        ),
      );
    }
  });

  it("answers malformed JSON with a JSON-RPC parse error (-32700)", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    for (const body of ["{not json", ""]) {
      let reason = "";
      try {
        JSON.parse(body);
      } catch (error) {
        reason = (error as Error).message;
      }
      const response = await rawRequest(url, { headers: postHeaders(sessionId), body });
      expect(response.status).toBe(400);
      expect(response.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(response.body)).toEqual(jsonRpcError(-32700, `Parse error: ${reason}`));
    }
  });

  it("answers JSON that is no JSON-RPC message with -32600", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const noVersion = await rawRequest(url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify({ id: 3, method: "ping" }),
    });
    expect(noVersion.status).toBe(400);
    expect(JSON.parse(noVersion.body)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' },
    });
    const scalar = await rawRequest(url, { headers: postHeaders(sessionId), body: "42" });
    expect(scalar.status).toBe(400);
    expect(JSON.parse(scalar.body)).toEqual(
      jsonRpcError(-32600, "Invalid Request: message must be a JSON object"),
    );
  });

  it("refuses a batch outside 2025-03-26", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const response = await rawRequest(url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify([{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }]),
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message:
          "Invalid Request: batches are refused: protocol 2025-11-25 does not allow them (only 2025-03-26 does)",
      },
    });
  });

  it("refuses a second request in flight with the same id", async () => {
    const { url, gates } = await start();
    const sessionId = await openSession(url);
    const call = (key: string) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "hang", arguments: { key } },
      });
    const first = fetch(url, { method: "POST", headers: postHeaders(sessionId), body: call("a") });
    await gates.wait("a:started");
    const second = await rawRequest(url, { headers: postHeaders(sessionId), body: call("b") });
    expect(second.status).toBe(400);
    expect(JSON.parse(second.body)).toEqual(
      jsonRpcError(
        -32600,
        "Invalid Request: id 7 is already in use by a request in flight; give each request its own id",
      ),
    );
    await rawRequest(url, {
      headers: postHeaders(sessionId),
      body: JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 7, reason: "done" },
      }),
    });
    const cancelled = await first;
    expect(await cancelled.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32800, message: "Request cancelled by the client" },
    });
  });

  it("refuses a Last-Event-ID it cannot resume", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    for (const lastEventId of ["garbage", "42.1"]) {
      const response = await rawRequest(url, {
        method: "GET",
        headers: {
          accept: "text/event-stream",
          "mcp-session-id": sessionId,
          "last-event-id": lastEventId,
        },
      });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual(
        jsonRpcError(
          -32000,
          `Bad Request: nothing to resume after Last-Event-ID "${lastEventId}": the stream is unknown or its events are gone; open the stream again without Last-Event-ID`,
        ),
      );
    }
  });
});

describe("401 Unauthorized", () => {
  const token = "s3cret-token";

  it("asks for the bearer token and points at the resource metadata", async () => {
    const { url, serving } = await start({ authToken: token });
    const metadataUrl = `http://127.0.0.1:${serving.port}/.well-known/oauth-protected-resource/mcp`;
    const missing = await rawRequest(url, {
      headers: postHeaders(),
      body: JSON.stringify(INITIALIZE),
    });
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    expect(JSON.parse(missing.body)).toEqual(
      jsonRpcError(
        -32000,
        "Unauthorized: send the server's token as Authorization: Bearer <token>",
      ),
    );
    const wrong = await rawRequest(url, {
      headers: { ...postHeaders(), authorization: "Bearer nope" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toBe(
      `Bearer error="invalid_token", resource_metadata="${metadataUrl}"`,
    );
    expect(JSON.parse(wrong.body)).toEqual(
      jsonRpcError(-32000, "Unauthorized: the bearer token is not valid for this server"),
    );
    const right = await rawRequest(url, {
      headers: { ...postHeaders(), authorization: `Bearer ${token}` },
      body: JSON.stringify(INITIALIZE),
    });
    expect(right.status).toBe(200);
  });

  it("publishes RFC 9728 metadata at both well-known paths, without auth", async () => {
    const { serving } = await start({
      authToken: token,
      authorizationServers: ["https://auth.example.com"],
    });
    const base = `http://127.0.0.1:${serving.port}`;
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const response = await rawRequest(base, { method: "GET", path });
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toEqual({
        resource: `${base}/mcp`,
        authorization_servers: ["https://auth.example.com"],
        bearer_methods_supported: ["header"],
        resource_name: "http-fixture",
      });
    }
    const health = await rawRequest(base, { method: "GET", path: "/health" });
    expect(health.status).toBe(200);
  });
});

describe("401 behind a proxy (publicUrl)", () => {
  const token = "s3cret-token";

  it("names the endpoint at publicUrl, its metadata at the well-known path inserted after the host", async () => {
    for (const [publicUrl, resource, metadataUrl] of [
      [
        "https://mcp.example.com/mcp",
        "https://mcp.example.com/mcp",
        "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
      ],
      [
        "https://example.com/team/mcp/",
        "https://example.com/team/mcp",
        "https://example.com/.well-known/oauth-protected-resource/team/mcp",
      ],
      // Only the origin: the endpoint is at the server's path there.
      [
        "https://mcp.example.com",
        "https://mcp.example.com/mcp",
        "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
      ],
    ] as const) {
      const { url, serving } = await start({ authToken: token, publicUrl });
      const missing = await rawRequest(url, {
        headers: postHeaders(),
        body: JSON.stringify(INITIALIZE),
      });
      expect(missing.headers["www-authenticate"]).toBe(`Bearer resource_metadata="${metadataUrl}"`);
      // A proxy that passes the public path through asks for it as the client did.
      const base = `http://127.0.0.1:${serving.port}`;
      const asked = new URL(metadataUrl).pathname;
      for (const path of [asked, "/.well-known/oauth-protected-resource/mcp"]) {
        const response = await rawRequest(base, { method: "GET", path });
        expect(response.status).toBe(200);
        expect(JSON.parse(response.body)).toMatchObject({ resource });
      }
    }
  });

  it("at the root, has its metadata at the well-known path with no slash after it (RFC 9728, 3.1)", async () => {
    for (const publicUrl of [undefined, "https://mcp.example.com/"]) {
      const { url, serving } = await start({ authToken: token, path: "/", publicUrl });
      const origin =
        publicUrl === undefined ? `http://127.0.0.1:${serving.port}` : "https://mcp.example.com";
      const missing = await rawRequest(url, {
        headers: postHeaders(),
        body: JSON.stringify(INITIALIZE),
      });
      expect(missing.headers["www-authenticate"]).toBe(
        `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"`,
      );
    }
  });

  it("is the audience tokens must carry when none is set", async () => {
    const audiences: string[] = [];
    const { url } = await start({
      publicUrl: "https://mcp.example.com/mcp",
      auth: {
        verifyToken: (_token, { audience }) => {
          audiences.push(audience);
          return undefined;
        },
      },
    });
    const refused = await rawRequest(url, {
      headers: { ...postHeaders(), authorization: "Bearer abc" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(refused.status).toBe(401);
    expect(audiences).toEqual(["https://mcp.example.com/mcp"]);
  });

  it("must be an absolute http(s) URL", async () => {
    await expect(start({ authToken: token, publicUrl: "mcp.example.com/mcp" })).rejects.toThrow(
      'publicUrl must be an absolute http(s) URL without a fragment, such as "https://mcp.example.com/mcp", got "mcp.example.com/mcp"',
    );
  });
});

describe("403 Forbidden (DNS rebinding protection)", () => {
  it("refuses a foreign Origin and accepts a local or listed one", async () => {
    const { url, serving } = await start({ allowedOrigins: ["https://app.example.com"] });
    const evil = await rawRequest(url, {
      headers: { ...postHeaders(), origin: "http://evil.example.com" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toEqual(
      jsonRpcError(
        -32000,
        'Forbidden: Origin "http://evil.example.com" is not allowed; add it to allowedOrigins to accept requests from that page',
      ),
    );
    for (const origin of [`http://localhost:${serving.port}`, "https://app.example.com"]) {
      const ok = await rawRequest(url, {
        headers: { ...postHeaders(), origin },
        body: JSON.stringify(INITIALIZE),
      });
      expect(ok.status).toBe(200);
    }
  });

  it("refuses a foreign Host, on every path", async () => {
    const { url } = await start();
    for (const path of ["/mcp", "/health"]) {
      const response = await rawRequest(url, {
        method: path === "/mcp" ? "POST" : "GET",
        path,
        headers: { ...postHeaders(), host: "evil.example.com" },
        body: path === "/mcp" ? JSON.stringify(INITIALIZE) : undefined,
      });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toEqual(
        jsonRpcError(
          -32000,
          'Forbidden: Host "evil.example.com" is not allowed (DNS rebinding protection); add its hostname to allowedHosts to accept it',
        ),
      );
    }
  });
});

describe("404 Not Found", () => {
  it("answers an unknown session id", async () => {
    const { url } = await start();
    const response = await rawRequest(url, { headers: postHeaders("no-such-session"), body: PING });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toEqual(jsonRpcError(-32001, UNKNOWN_SESSION));
  });

  it("answers a session ended by DELETE", async () => {
    const { url, server } = await start();
    const sessionId = await openSession(url);
    const deleted = await rawRequest(url, {
      method: "DELETE",
      headers: { "mcp-session-id": sessionId, "mcp-protocol-version": PROTOCOL_VERSION },
    });
    expect(deleted).toMatchObject({ status: 204, body: "" });
    expect(server.sessionCount).toBe(0);
    for (const method of ["POST", "GET", "DELETE"]) {
      const response = await rawRequest(url, {
        method,
        headers: postHeaders(sessionId),
        body: method === "POST" ? PING : undefined,
      });
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body)).toEqual(jsonRpcError(-32001, UNKNOWN_SESSION));
    }
  });

  it("answers an unknown path, and the metadata path when auth is off", async () => {
    const { url } = await start();
    const other = await rawRequest(url, { method: "GET", path: "/elsewhere" });
    expect(other.status).toBe(404);
    expect(JSON.parse(other.body)).toEqual(
      jsonRpcError(-32000, "Not Found: the MCP endpoint is /mcp"),
    );
    const metadata = await rawRequest(url, {
      method: "GET",
      path: "/.well-known/oauth-protected-resource",
    });
    expect(metadata.status).toBe(404);
    expect(JSON.parse(metadata.body)).toEqual(
      jsonRpcError(
        -32000,
        "Not Found: this server does not require authorization, so it publishes no protected-resource metadata",
      ),
    );
  });
});

describe("405 Method Not Allowed", () => {
  it("names the methods each path takes", async () => {
    const { url } = await start();
    const put = await rawRequest(url, { method: "PUT", headers: postHeaders(), body: PING });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("POST, GET, DELETE");
    expect(JSON.parse(put.body)).toEqual(
      jsonRpcError(
        -32000,
        "Method Not Allowed: the MCP endpoint takes POST, GET and DELETE, not PUT",
      ),
    );
    const health = await rawRequest(url, { method: "POST", path: "/health", body: "{}" });
    expect(health.status).toBe(405);
    expect(health.headers.allow).toBe("GET, HEAD");
    expect(JSON.parse(health.body)).toEqual(
      jsonRpcError(-32000, "Method Not Allowed: use GET /health"),
    );
  });
});

describe("406 Not Acceptable", () => {
  it("wants both JSON and SSE on a POST, and SSE on a GET", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const postJsonOnly = await rawRequest(url, {
      headers: { ...postHeaders(sessionId), accept: "application/json" },
      body: PING,
    });
    expect(postJsonOnly.status).toBe(406);
    expect(JSON.parse(postJsonOnly.body)).toEqual(
      jsonRpcError(
        -32000,
        'Not Acceptable: a POST must send Accept: application/json, text/event-stream (got "application/json")',
      ),
    );
    const { accept: _none, ...withoutAccept } = postHeaders(sessionId);
    const postNoAccept = await rawRequest(url, { headers: withoutAccept, body: PING });
    expect(postNoAccept.status).toBe(406);
    expect(JSON.parse(postNoAccept.body)).toEqual(
      jsonRpcError(
        -32000,
        'Not Acceptable: a POST must send Accept: application/json, text/event-stream (got "none")',
      ),
    );
    const get = await rawRequest(url, {
      method: "GET",
      headers: { accept: "application/json", "mcp-session-id": sessionId },
    });
    expect(get.status).toBe(406);
    expect(JSON.parse(get.body)).toEqual(
      jsonRpcError(
        -32000,
        'Not Acceptable: a GET opens an event stream, so it must send Accept: text/event-stream (got "application/json")',
      ),
    );
  });
});

describe("413 Payload Too Large", () => {
  const message =
    "Payload Too Large: the body exceeds 1024 bytes; send a smaller message or raise maxBodyBytes";

  const big = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "echo", arguments: { message: "x".repeat(2000) } },
  });

  it("refuses a body over the limit, declared or streamed", async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const sessionId = await openSession(url);
    for (const chunked of [false, true]) {
      const response = await rawRequest(url, {
        headers: postHeaders(sessionId),
        body: big,
        chunked,
      });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toEqual(jsonRpcError(-32000, message));
    }
    const fits = await rawRequest(url, { headers: postHeaders(sessionId), body: PING });
    expect(fits.status).toBe(200);
  });

  it("answers a declared body over the limit at once, before the client sends it (Expect: 100-continue)", async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const sessionId = await openSession(url);
    const refused = await expectContinue(url, postHeaders(sessionId), big);
    expect([refused.continued, refused.status, JSON.parse(refused.body)]).toEqual([
      false,
      413,
      jsonRpcError(-32000, message),
    ]);
    const fits = await expectContinue(url, postHeaders(sessionId), PING);
    expect([fits.continued, fits.status, JSON.parse(fits.body)]).toEqual([
      true,
      200,
      { jsonrpc: "2.0", id: 1, result: {} },
    ]);
  });

  it("says 100 Continue only once the headers pass: a caller without the token gets 401 at once", async () => {
    const { url } = await start({ authToken: "secret" });
    const anonymous = await expectContinue(url, postHeaders(), JSON.stringify(INITIALIZE));
    expect([anonymous.continued, anonymous.status]).toEqual([false, 401]);
    const known = await expectContinue(
      url,
      { ...postHeaders(), authorization: "Bearer secret" },
      JSON.stringify(INITIALIZE),
    );
    expect([known.continued, known.status]).toEqual([true, 200]);
  });
});

describe("415 Unsupported Media Type", () => {
  it("wants Content-Type: application/json", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const plain = await rawRequest(url, {
      headers: { ...postHeaders(sessionId), "content-type": "text/plain" },
      body: PING,
    });
    expect(plain.status).toBe(415);
    expect(JSON.parse(plain.body)).toEqual(
      jsonRpcError(
        -32000,
        'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json (got "text/plain")',
      ),
    );
  });
});

describe("createHttpHandler inside an existing node:http server", () => {
  it("passes other paths on, and answers 503 once closed", async () => {
    const { server } = createFixture();
    const handler = createHttpHandler(server, { path: "/rpc" });
    const listener = createHttpServer((req, res) =>
      handler.handle(req, res, () => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("the app's own page");
      }),
    );
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const { port } = listener.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/rpc`;
    try {
      const own = await rawRequest(url, { method: "GET", path: "/" });
      expect(own).toMatchObject({ status: 200, body: "the app's own page" });
      const sessionId = await openSession(url);
      expect(handler.sessionCount).toBe(1);
      await handler.close();
      expect(handler.sessionCount).toBe(0);
      const closed = await rawRequest(url, { headers: postHeaders(sessionId), body: PING });
      expect(closed.status).toBe(503);
      expect(JSON.parse(closed.body)).toEqual(
        jsonRpcError(-32000, "Service Unavailable: the server is shutting down; try again later"),
      );
      const health = await rawRequest(url, { method: "GET", path: "/health" });
      expect(health.status).toBe(503);
      expect(JSON.parse(health.body)).toEqual({ status: "closing" });
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});

describe("serveHttp", () => {
  it("says what to do when the port is taken", async () => {
    const first = await start();
    await expect(startFixture({ port: first.serving.port })).rejects.toThrow(
      `Cannot listen on 127.0.0.1:${first.serving.port}: the port is in use; choose another port (0 picks a free one)`,
    );
  });

  it("bound to every interface, warns, accepts any Host and still checks Origin", async () => {
    const open = await start({ host: "0.0.0.0", allowUnauthenticatedRemote: true });
    expect(open.url).toBe(`http://127.0.0.1:${open.serving.port}/mcp`);
    expect(open.warnings).toEqual([
      "listening on every interface (0.0.0.0): any Host header is accepted, so DNS rebinding protection rests on the Origin check alone (browser pages need a loopback Origin or one in allowedOrigins); set allowedHosts to the names clients use",
    ]);
    const named = await rawRequest(open.url, {
      headers: { ...postHeaders(), host: "mcp.example.com" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(named.status).toBe(200);
    const foreign = await rawRequest(open.url, {
      headers: { ...postHeaders(), host: "mcp.example.com", origin: "http://evil.example.com" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(foreign.status).toBe(403);
  });
});
