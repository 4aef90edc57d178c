/**
 * The other verifiers and doors: opaque tokens through RFC 7662
 * introspection at the real issuer (oidc-provider), a `verifyToken` of the
 * author's own, the fetch handler, the issuer out of reach (at start, and
 * while running), and options that cannot work, each with its exact answer.
 */
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthInfo, createFetchHandler, type HttpServing, serveHttp } from "../../src/index.js";
import { INITIALIZE, post, postHeaders } from "../http/helpers.js";
import { RESOURCE_SERVER, startIssuer, type TestIssuer } from "./helpers/issuer.js";
import { scopedServer } from "./helpers/scoped-server.js";

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await startIssuer({ opaque: (resource) => resource.endsWith("/opaque") });
});
afterAll(async () => {
  await issuer?.close();
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A 2026-07-28 tools/call of "notes" (which answers with its ctx.auth) as a web Request. */
function notesRequest(url: string, token: string | undefined): Request {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "notes",
  };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return new Request(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "notes", arguments: {}, _meta: META },
    }),
  });
}

async function authSeen(response: Response): Promise<unknown> {
  const body = (await response.json()) as { result?: { content: { text: string }[] } };
  const text = body.result?.content[0]?.text;
  return text === undefined ? body : JSON.parse(text);
}

/** A URL on this machine where nothing listens any more. */
async function closedUrl(): Promise<string> {
  const http = createHttpServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  await new Promise<void>((resolve) => http.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe("opaque tokens, by introspection at the issuer", () => {
  let serving: HttpServing;
  beforeAll(async () => {
    serving = await serveHttp(scopedServer(), {
      port: 0,
      path: "/opaque",
      auth: { issuer: issuer.url, introspection: RESOURCE_SERVER },
    });
  });
  afterAll(() => serving?.close());

  it("accepts an active token for this resource, naming the client it was issued to", async () => {
    const token = await issuer.token(serving.url, ["mcp", "notes:read"]);
    expect(token).not.toContain(".");
    const response = await fetch(notesRequest(serving.url, token));
    expect(response.status).toBe(200);
    const seen = await authSeen(response);
    // A client acting on its own behalf: this issuer's introspection names no subject.
    expect(seen).not.toHaveProperty("subject");
    expect(seen).toMatchObject({
      clientId: "app",
      scopes: ["mcp", "notes:read"],
      claims: { active: true, aud: serving.url, iss: issuer.url },
    });
  });

  it("asks the issuer once for a new token that several requests bring at once", async () => {
    const token = await issuer.token(serving.url, ["mcp", "notes:read"]);
    const before = issuer.introspections;
    const requests = [1, 2, 3, 4].map(() => fetch(notesRequest(serving.url, token)));
    const statuses = (await Promise.all(requests)).map((response) => response.status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(issuer.introspections - before).toBe(1);
  });

  it("refuses a token the issuer does not know", async () => {
    const response = await fetch(notesRequest(serving.url, "made-up-token"));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message:
          "Unauthorized: the access token is not active (the authorization server says it expired, was revoked or is unknown)",
      },
    });
  });
});

describe("an audience that is not a URL (Okta's api://default, Entra ID's application id)", () => {
  let named: TestIssuer;
  let serving: HttpServing;
  beforeAll(async () => {
    named = await startIssuer({ audience: () => "api://default" });
    serving = await serveHttp(scopedServer(), {
      port: 0,
      auth: { issuer: named.url, audience: "api://default" },
    });
  });
  afterAll(async () => {
    await serving?.close();
    await named?.close();
  });

  it("is what tokens must carry, while the metadata's resource stays the endpoint's URL", async () => {
    const metadata = await fetch(
      `${new URL(serving.url).origin}/.well-known/oauth-protected-resource/mcp`,
    );
    expect(await metadata.json()).toMatchObject({ resource: serving.url });
    const token = await named.token(serving.url, ["mcp", "notes:read"]);
    const response = await fetch(notesRequest(serving.url, token));
    expect(await authSeen(response)).toMatchObject({ claims: { aud: "api://default" } });
  });
});

const NO_AUTHORIZATION_SERVER =
  "auth: auth.verifyToken is set without auth.issuer or authorizationServers, so the protected-resource metadata names no authorization server and MCP clients cannot find where to get a token; set authorizationServers to the issuer of the tokens verifyToken accepts";

describe("verifyToken of the author's own", () => {
  const handler = createFetchHandler(scopedServer(), {
    auth: {
      verifyToken: (token, { audience }): AuthInfo | undefined =>
        token === "let-me-in"
          ? {
              subject: "ann",
              clientId: "cli",
              scopes: ["mcp", "notes:read"],
              expiresAt: undefined,
              claims: { audience },
            }
          : undefined,
    },
  });
  afterAll(() => handler.close());

  it("names the caller on the fetch handler's door too", async () => {
    const response = await handler(notesRequest("http://localhost/mcp", "let-me-in"));
    expect(await authSeen(response)).toEqual({
      subject: "ann",
      clientId: "cli",
      scopes: ["mcp", "notes:read"],
      claims: { audience: "http://localhost/mcp" },
    });
  });

  it("answers a 2025 call (served without a session) the token lacks scopes for with 403 and the challenge", async () => {
    const response = await handler(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          authorization: "Bearer let-me-in",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "admin_deploy", arguments: {} },
        }),
      }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_scope", resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp", scope="admin deploy mcp"',
    );
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32003,
        message:
          'Insufficient scope: tool "admin_deploy" needs the scopes admin deploy mcp, and the access token lacks admin deploy; authorize again asking for them',
        data: { requiredScopes: ["admin", "deploy", "mcp"] },
      },
    });
  });

  it("warns when no authorization server is named, since the metadata must name one", async () => {
    const warnings: string[] = [];
    const verifyToken = () => undefined;
    for (const authorizationServers of [undefined, ["https://id.example.com"]]) {
      const server = scopedServer({ warn: (line) => warnings.push(line) });
      await createFetchHandler(server, { auth: { verifyToken }, authorizationServers }).close();
    }
    expect(warnings).toEqual([NO_AUTHORIZATION_SERVER]);
  });

  it("refuses what it returns nothing for", async () => {
    const response = await handler(notesRequest("http://localhost/mcp", "nope"));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      'Bearer error="invalid_token", resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp", scope="mcp"',
    );
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: "Unauthorized: the access token is not valid for this server",
      },
    });
  });
});

describe("tokens that name no one (no subject, no client)", () => {
  it("are each a caller of their own: one token's session is not another's", async () => {
    const serving = await serveHttp(scopedServer(), {
      port: 0,
      auth: {
        verifyToken: (token): AuthInfo | undefined =>
          token.startsWith("nameless-")
            ? {
                subject: undefined,
                clientId: undefined,
                scopes: ["mcp"],
                expiresAt: undefined,
                claims: {},
              }
            : undefined,
      },
    });
    try {
      const as = (token: string, sessionId?: string) => ({
        ...postHeaders(sessionId),
        authorization: `Bearer ${token}`,
      });
      const opened = await post(serving.url, INITIALIZE, as("nameless-a"));
      expect(opened.status).toBe(200);
      await opened.text();
      const sessionId = opened.headers.get("mcp-session-id") ?? "";
      const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
      const other = await post(serving.url, list, as("nameless-b", sessionId));
      expect(other.status).toBe(403);
      expect(await other.json()).toEqual({
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message:
            "Forbidden: this session was opened by another caller (the access token names someone else); send initialize without an Mcp-Session-Id to open your own",
        },
      });
      const own = await post(serving.url, list, as("nameless-a", sessionId));
      expect(own.status).toBe(200);
      await own.text();
    } finally {
      await serving.close();
    }
  });
});

describe("the static token beside OAuth", () => {
  it("is the operator's key: it names no one and passes every scope check", async () => {
    const handler = createFetchHandler(scopedServer(), {
      authToken: "operator-key",
      auth: { verifyToken: () => undefined },
    });
    const response = await handler(notesRequest("http://localhost/mcp", "operator-key"));
    expect(response.status).toBe(200);
    expect(await authSeen(response)).toBeNull();
    const refused = await handler(notesRequest("http://localhost/mcp", "someone-else"));
    expect(refused.status).toBe(401);
    await handler.close();
  });
});

describe("an issuer behind a site that answers every path", () => {
  const HOME = "<!doctype html><title>Sign in</title>";

  it("is found at the next metadata URL when one answers a page rather than JSON", async () => {
    const behindSite = await startIssuer({
      pages: { "/.well-known/oauth-authorization-server": HOME },
    });
    try {
      const serving = await serveHttp(scopedServer(), {
        port: 0,
        path: "/mcp",
        auth: { issuer: behindSite.url },
      });
      try {
        const resource = serving.url;
        const token = await behindSite.token(resource, ["mcp", "notes:read"]);
        const response = await fetch(notesRequest(resource, token));
        expect(response.status).toBe(200);
      } finally {
        await serving.close();
      }
    } finally {
      await behindSite.close();
    }
  });

  it("is refused at start naming each URL tried and what it answered, when none answers JSON", async () => {
    const pages = await startIssuer({
      pages: {
        "/.well-known/oauth-authorization-server": HOME,
        "/.well-known/openid-configuration": HOME,
      },
    });
    try {
      await expect(
        serveHttp(scopedServer(), { port: 0, auth: { issuer: pages.url } }),
      ).rejects.toThrow(
        `The authorization server ${pages.url} publishes no metadata: ${pages.url}/.well-known/oauth-authorization-server (200, not JSON: text/html), ${pages.url}/.well-known/openid-configuration (200, not JSON: text/html); check the issuer (--auth-issuer, auth.issuer), or give auth.jwksUri`,
      );
    } finally {
      await pages.close();
    }
  });
});

describe("an issuer out of reach", () => {
  it("stops serveHttp at start, naming the URL it tried", async () => {
    const gone = await closedUrl();
    await expect(serveHttp(scopedServer(), { port: 0, auth: { issuer: gone } })).rejects.toThrow(
      `Cannot reach the authorization server ${gone}: fetching ${gone}/.well-known/oauth-authorization-server failed: fetch failed (ECONNREFUSED); check the issuer (--auth-issuer, auth.issuer) and that it is up`,
    );
  });

  it("while running, answers 503 and logs why, rather than 500", async () => {
    const gone = await closedUrl();
    const warnings: string[] = [];
    const handler = createFetchHandler(scopedServer({ warn: (line) => warnings.push(line) }), {
      auth: { issuer: gone },
    });
    const response = await handler(notesRequest("http://localhost/mcp", "a.b.c"));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message:
          "Service Unavailable: the authorization server's keys cannot be fetched to check the access token; try again later",
      },
    });
    expect(warnings).toEqual([
      `auth: Cannot reach the authorization server ${gone}: fetching ${gone}/.well-known/oauth-authorization-server failed: fetch failed (ECONNREFUSED); check the issuer (--auth-issuer, auth.issuer) and that it is up`,
    ]);
    await handler.close();
  });
});

describe("options that cannot work", () => {
  const server = scopedServer();
  it.each([
    [
      { allowedHosts: ["*"], auth: { issuer: "https://id.example.com" } },
      "auth.audience is needed when any Host is accepted: set it (--auth-audience, MCP_DIR_AUTH_AUDIENCE) to the URL clients use for this endpoint, e.g. https://mcp.example.com/mcp, so a token for another resource cannot pass for one for this server",
    ],
    [
      { auth: { issuer: "https://id.example.com", algorithms: ["RS256", "HS256"] } },
      'auth.algorithms must hold asymmetric algorithms only (RS256, PS256, ES256, EdDSA...), not "HS256": a token signed with it could be forged',
    ],
    [
      { auth: { issuer: "id.example.com" } },
      'auth.issuer must be an absolute http(s) URL without a fragment, such as "https://id.example.com", got "id.example.com"',
    ],
    [
      { auth: {} },
      "auth needs an issuer (the authorization server whose tokens to accept), or a verifyToken function",
    ],
    [
      {
        auth: {
          introspection: { clientId: "rs", clientSecret: "s" },
          verifyToken: () => undefined,
        },
      },
      "auth.introspection needs an endpoint, or an issuer whose metadata gives one",
    ],
  ])("%j is refused", (options, message) => {
    expect(() => createFetchHandler(server, options)).toThrow(message);
  });
});
