/**
 * What a server exposes beyond this machine, over raw HTTP against serveHttp:
 * binding past loopback needs auth or an explicit opt-in, a rebound Host with
 * a matching Origin is refused, sessions are bounded, and an oversized chunked
 * body stops being read.
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { serveHttp } from "../../src/index.js";
import { createFixture } from "./fixtures/server.js";
import {
  INITIALIZE,
  openSession,
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

const INIT_BODY = JSON.stringify(INITIALIZE);

describe("binding beyond loopback", () => {
  for (const host of ["0.0.0.0", "::"]) {
    it(`refuses ${host} without a token unless told the server is meant to be open`, async () => {
      const { server } = createFixture();
      await expect(serveHttp(server, { host, port: 0 })).rejects.toThrow(
        `Refusing to listen on ${host} without authentication: any machine that can reach it could call every tool. Set MCP_DIR_AUTH_TOKEN (or --auth-token, authToken) to require a bearer token, or MCP_DIR_AUTH_ISSUER (--auth-issuer, auth.issuer) to accept OAuth access tokens, or pass --allow-unauthenticated-remote (allowUnauthenticatedRemote: true) if the server is meant to be open`,
      );
    });
  }

  it("serves with a token, and a rebound Host with a matching Origin gets 403", async () => {
    const open = await start({ host: "0.0.0.0", authToken: "secret" });
    const { port } = open.serving;
    const rebound = await rawRequest(open.url, {
      headers: {
        ...postHeaders(),
        authorization: "Bearer secret",
        host: `evil.example.com:${port}`,
        origin: `http://evil.example.com:${port}`,
      },
      body: INIT_BODY,
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual(
      jsonRpcError(
        -32000,
        `Forbidden: Origin "http://evil.example.com:${port}" is not allowed; add it to allowedOrigins to accept requests from that page`,
      ),
    );
    const listed = await start({
      host: "0.0.0.0",
      authToken: "secret",
      allowedOrigins: ["https://app.example.com"],
    });
    const page = await rawRequest(listed.url, {
      headers: {
        ...postHeaders(),
        authorization: "Bearer secret",
        host: "mcp.example.com",
        origin: "https://app.example.com",
      },
      body: INIT_BODY,
    });
    expect(page.status).toBe(200);
  });

  it("opened on purpose, serves without a token but still refuses a rebound page", async () => {
    const open = await start({ host: "0.0.0.0", allowUnauthenticatedRemote: true });
    const { port } = open.serving;
    const named = await rawRequest(open.url, {
      headers: { ...postHeaders(), host: `mcp.example.com:${port}` },
      body: INIT_BODY,
    });
    expect(named.status).toBe(200);
    const rebound = await rawRequest(open.url, {
      headers: {
        ...postHeaders(),
        host: `evil.example.com:${port}`,
        origin: `http://evil.example.com:${port}`,
      },
      body: INIT_BODY,
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual(
      jsonRpcError(
        -32000,
        `Forbidden: Origin "http://evil.example.com:${port}" is not allowed; add it to allowedOrigins to accept requests from that page`,
      ),
    );
  });

  it("on loopback, a rebound Host is refused even with a matching Origin", async () => {
    const local = await start();
    const { port } = local.serving;
    const rebound = await rawRequest(local.url, {
      headers: {
        ...postHeaders(),
        host: `evil.example.com:${port}`,
        origin: `http://evil.example.com:${port}`,
      },
      body: INIT_BODY,
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual(
      jsonRpcError(
        -32000,
        `Forbidden: Host "evil.example.com:${port}" is not allowed (DNS rebinding protection); add its hostname to allowedHosts to accept it`,
      ),
    );
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      const ok = await rawRequest(local.url, {
        headers: { ...postHeaders(), host, origin: `http://${host}` },
        body: INIT_BODY,
      });
      expect(ok.status).toBe(200);
    }
  });
});

describe("the session bound", () => {
  it("answers a new initialize with 503 once maxSessions are open, and takes one again after a DELETE", async () => {
    const { url } = await start({ maxSessions: 2 });
    const first = await openSession(url);
    await openSession(url);
    const full = await rawRequest(url, { headers: postHeaders(), body: INIT_BODY });
    expect(full.status).toBe(503);
    expect(JSON.parse(full.body)).toEqual(
      jsonRpcError(
        -32000,
        "Service Unavailable: the server already holds its limit of 2 sessions; end one (DELETE) or try again later, or raise maxSessions (--max-sessions)",
      ),
    );
    const ended = await rawRequest(url, { method: "DELETE", headers: postHeaders(first) });
    expect(ended.status).toBe(204);
    expect(typeof (await openSession(url))).toBe("string");
  });

  it("explains a bound it cannot use", async () => {
    const { server } = createFixture();
    await expect(serveHttp(server, { port: 0, maxSessions: 0 })).rejects.toThrow(
      "maxSessions must be a whole number of 1 or more, got 0",
    );
    await expect(serveHttp(server, { port: 0, maxSessions: 1.5 })).rejects.toThrow(
      "maxSessions must be a whole number of 1 or more, got 1.5",
    );
    await expect(serveHttp(server, { port: 0, maxSessionsPerCaller: 0 })).rejects.toThrow(
      "maxSessionsPerCaller must be a whole number of 1 or more, got 0",
    );
    await expect(serveHttp(server, { port: 0, maxSessionsPerCaller: 2.5 })).rejects.toThrow(
      "maxSessionsPerCaller must be a whole number of 1 or more, got 2.5",
    );
  });
});

interface Streamed {
  status: number | undefined;
  body: string;
  sent: number;
}

/**
 * Streams a chunked body of up to `total` bytes, as fast as the server reads it.
 * Resolves once everything is sent or the connection is gone, with what the
 * server answered and how many bytes went out.
 */
function streamChunked(url: string, headers: Record<string, string>, total: number) {
  const target = new URL(url);
  return new Promise<Streamed>((resolve) => {
    const result: Streamed = { status: undefined, body: "", sent: 0 };
    let responseDone = false;
    let writingDone = false;
    const settle = () => {
      if (responseDone && writingDone) resolve(result);
    };
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers,
        agent: false,
      },
      (res) => {
        result.status = res.statusCode;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          result.body += chunk;
        });
        res.on("end", () => {
          responseDone = true;
          settle();
        });
        res.on("error", () => {
          responseDone = true;
          settle();
        });
      },
    );
    const chunk = Buffer.alloc(64 * 1024, "x");
    const closed = new Promise<void>((resolveClosed) => req.once("close", resolveClosed));
    req.on("error", () => {
      responseDone ||= result.status === undefined;
    });
    void (async () => {
      while (result.sent < total && !req.destroyed) {
        result.sent += chunk.length;
        if (!req.write(chunk)) {
          await Promise.race([new Promise((r) => req.once("drain", r)), closed]);
        }
      }
      if (!req.destroyed) req.end();
      await closed;
      writingDone = true;
      responseDone ||= result.status === undefined;
      settle();
    })();
  });
}

describe("413 for a chunked body", () => {
  it("answers 413 and stops reading: the connection closes long before the body is sent", async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const sessionId = await openSession(url);
    const total = 256 * 1024 * 1024;
    const streamed = await streamChunked(url, postHeaders(sessionId), total);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toEqual(
      jsonRpcError(
        -32000,
        "Payload Too Large: the body exceeds 1024 bytes; send a smaller message or raise maxBodyBytes",
      ),
    );
    expect(streamed.sent).toBeLessThan(total / 4);
  });
});
