/**
 * OAuth over Streamable HTTP against a real authorization server in the test
 * (oidc-provider issuing JWT access tokens for this resource): the official
 * clients' own OAuth support end to end (the v2 client in 2026-07-28, the v1
 * client on 2025-11-25), each stepping up on a 403 for a scoped tool; and
 * every refusal with its exact answer.
 */
import {
  ClientCredentialsProvider as ClientCredentialsV2,
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from "@modelcontextprotocol/client";
import { ClientCredentialsProvider as ClientCredentialsV1 } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as jose from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type HttpServing, serveHttp } from "../../src/index.js";
import { forgedToken } from "./helpers/forged-token.js";
import { APP, OTHER_APP, signingKey, startIssuer, type TestIssuer } from "./helpers/issuer.js";
import { scopedServer } from "./helpers/scoped-server.js";

let issuer: TestIssuer;
let serving: HttpServing;
let origin: string;
let metadataUrl: string;
const warnings: string[] = [];

/**
 * One clock for the file, faked (Date only) so that tokens can expire and key
 * refetch cooldowns pass without waiting: the issuer, the server and jose all
 * read it. It only moves forward.
 */
function advance(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  issuer = await startIssuer();
  const server = scopedServer({ warn: (line) => warnings.push(line) });
  serving = await serveHttp(server, { port: 0, auth: { issuer: issuer.url } });
  origin = `http://127.0.0.1:${serving.port}`;
  metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
});
afterAll(async () => {
  await serving?.close();
  await issuer?.close();
  vi.useRealTimers();
});

const STATELESS_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};

/** One 2026-07-28 tools/call as raw HTTP, with these headers. */
async function callTool(
  name: string,
  token: string | undefined,
  extra: Record<string, unknown> = {},
): Promise<{ status: number; challenge: string | null; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": name,
  };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(serving.url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: {}, ...extra, _meta: STATELESS_META },
    }),
  });
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

const refusal = (message: string) => ({ jsonrpc: "2.0", error: { code: -32000, message } });
const invalidToken = () =>
  `Bearer error="invalid_token", resource_metadata="${metadataUrl}", scope="mcp"`;
const resource = () => `${origin}/mcp`;

/** Records each response's status and challenge as a client's fetch sees them. */
function recordingFetch(seen: { status: number; challenge: string | null }[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    seen.push({ status: response.status, challenge: response.headers.get("www-authenticate") });
    return response;
  };
}

describe("a request without a valid token", () => {
  it("gets 401 pointing at the metadata, with the scopes every tool needs", async () => {
    const answer = await callTool("echo", undefined);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);
    expect(answer.body).toEqual(
      refusal(
        `Unauthorized: send an access token as Authorization: Bearer <token>; the metadata at ${metadataUrl} names the authorization server that issues them`,
      ),
    );
  });

  it("finds RFC 9728 metadata naming the resource, its authorization server and every scope", async () => {
    const response = await fetch(metadataUrl);
    expect(await response.json()).toEqual({
      resource: resource(),
      authorization_servers: [issuer.url],
      scopes_supported: ["admin", "deploy", "mcp", "notes:read"],
      bearer_methods_supported: ["header"],
      resource_name: "scoped",
    });
  });
});

describe("the official clients' own OAuth support", () => {
  it("v2 (2026-07-28): from the 401 it finds the issuer, gets a token, lists, and steps up on a 403", async () => {
    const seen: { status: number; challenge: string | null }[] = [];
    const client = new ClientV2({ name: "oauth-v2", version: "1.0.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    } as ConstructorParameters<typeof ClientV2>[1]);
    const authProvider = new ClientCredentialsV2({ ...APP, expectedIssuer: issuer.url });
    const transport = new HttpTransportV2(new URL(serving.url), {
      authProvider,
      fetch: recordingFetch(seen),
    });
    await client.connect(transport);
    try {
      // The first token has what the 401 asked for: "mcp", and no tool that needs more is listed.
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
      const result = await client.callTool({ name: "admin_deploy", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: "deployed by app" }]);
      expect(seen).toContainEqual({
        status: 403,
        challenge: `Bearer error="insufficient_scope", resource_metadata="${metadataUrl}", scope="admin deploy mcp"`,
      });
      // After the step-up its token has every scope it asked for, so it sees more.
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        "admin_deploy",
        "echo",
      ]);
    } finally {
      await client.close();
    }
  });

  it("v1 (2025-11-25 session): gets a token, is served in a session bound to its subject, is refused 403 with the challenge", async () => {
    const seen: { status: number; challenge: string | null }[] = [];
    const client = new ClientV1({ name: "oauth-v1", version: "1.0.0" });
    // The v1 client's client_credentials asks for the scopes it is configured with, whatever a challenge says.
    const authProvider = new ClientCredentialsV1({ ...APP, scope: "mcp notes:read" });
    const transport = new HttpTransportV1(new URL(serving.url), {
      authProvider,
      fetch: recordingFetch(seen),
    });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe("scoped");
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        "confirm",
        "echo",
        "notes",
      ]);
      const result = await client.callTool({ name: "notes", arguments: {} });
      const auth = JSON.parse((result.content as { text: string }[])[0]?.text ?? "");
      expect(auth).toMatchObject({
        subject: "app",
        clientId: "app",
        scopes: ["mcp", "notes:read"],
        claims: { iss: issuer.url, aud: resource(), client_id: "app" },
      });
      // It tries to step up, but asks for the same scopes again: the second 403 ends it.
      await expect(client.callTool({ name: "admin_deploy", arguments: {} })).rejects.toThrow(
        "Server returned 403 after trying upscoping",
      );
      expect(seen).toContainEqual({
        status: 403,
        challenge: `Bearer error="insufficient_scope", resource_metadata="${metadataUrl}", scope="admin deploy mcp"`,
      });
      // Someone else's token does not open this session.
      const other = await issuer.token(resource(), ["mcp"], OTHER_APP);
      const stolen = await fetch(serving.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          "mcp-session-id": transport.sessionId ?? "",
          authorization: `Bearer ${other}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
      });
      expect(stolen.status).toBe(403);
      expect(await stolen.json()).toEqual(
        refusal(
          "Forbidden: this session was opened by another caller (the access token names someone else); send initialize without an Mcp-Session-Id to open your own",
        ),
      );
    } finally {
      await client.close();
    }
  });
});

describe("refused, each with its exact answer", () => {
  /** A token signed with `key`, claiming what a real one would, with `claims` over it. */
  const forged = (
    key: jose.CryptoKey | Uint8Array,
    header: jose.JWTHeaderParameters,
    claims: jose.JWTPayload = {},
  ) => forgedToken(key, header, { issuer: issuer.url, resource: resource() }, claims);

  async function expectRefused(token: string, message: string, challenge = invalidToken()) {
    const answer = await callTool("echo", token);
    expect(answer).toEqual({ status: 401, challenge, body: refusal(`Unauthorized: ${message}`) });
  }

  it("an Authorization header of another scheme, with a challenge that names no error (RFC 6750, 3.1)", async () => {
    const response = await fetch(serving.url, {
      method: "POST",
      headers: { authorization: "Basic YXBwOnNlY3JldA==" },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${metadataUrl}", scope="mcp"`,
    );
    expect(await response.json()).toEqual(
      refusal("Unauthorized: the Authorization header must be Bearer <access token>"),
    );
  });

  it("an expired token (though it was accepted and remembered before)", async () => {
    const token = await issuer.token(resource(), ["mcp"]);
    expect((await callTool("echo", token)).status).toBe(200);
    advance((600 + 31) * 1000);
    const { exp } = jose.decodeJwt(token);
    await expectRefused(
      token,
      `the access token expired at ${new Date((exp ?? 0) * 1000).toISOString()}; get a new one`,
    );
  });

  it("a token not yet valid", async () => {
    const nbf = Math.floor(Date.now() / 1000) + 3600;
    const token = await forged(
      await jose.importJWK(issuer.key.privateJwk),
      { alg: "RS256", kid: issuer.key.kid },
      { nbf },
    );
    await expectRefused(
      token,
      `the access token is not valid before ${new Date(nbf * 1000).toISOString()}`,
    );
  });

  it("a token from another issuer", async () => {
    const stranger = await startIssuer();
    try {
      const token = await stranger.token(resource(), ["mcp"]);
      await expectRefused(
        token,
        `the access token was issued by "${stranger.url}", not by this server's authorization server (${issuer.url})`,
      );
    } finally {
      await stranger.close();
    }
  });

  it("a token for another resource (the audience it carries is named, and logged once)", async () => {
    const elsewhere = "http://127.0.0.1:1/other-mcp";
    const token = await issuer.token(elsewhere, ["mcp"]);
    const message = `the access token carries audience "${elsewhere}", not this server (${resource()}); get a token for resource=${resource()}`;
    await expectRefused(token, message);
    await expectRefused(token, message);
    expect(warnings.filter((line) => line.includes(elsewhere))).toEqual([
      `auth: refused an access token that carries audience "${elsewhere}", not this server's audience ${resource()}: if that is this server, set the audience (--auth-audience, auth.audience) to it`,
    ]);
  });

  it('a token with alg "none"', async () => {
    const token = new jose.UnsecuredJWT({ iss: issuer.url, aud: resource(), sub: "mallory" })
      .setIssuedAt()
      .setExpirationTime("10m")
      .encode();
    await expectRefused(
      token,
      'the access token is signed with "none", which this server does not accept (it accepts RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA)',
    );
  });

  it("a token signed with HS256 using the issuer's public key as the secret", async () => {
    const pem = await jose.exportSPKI(issuer.key.publicKey);
    const token = await forged(new TextEncoder().encode(pem), {
      alg: "HS256",
      kid: issuer.key.kid,
    });
    await expectRefused(
      token,
      'the access token is signed with "HS256", which this server does not accept (it accepts RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA)',
    );
  });

  it("a token signed with a key the issuer does not publish: one refetch of its keys, then 401", async () => {
    const stranger = await signingKey("stranger");
    const token = await forged(stranger.privateKey, { alg: "RS256", kid: "stranger" });
    // Past the refetch cooldown that started when the server last fetched the keys.
    advance(31_000);
    const before = issuer.jwksFetches;
    const message = `the access token is signed with a key (kid "stranger") that ${issuer.url} does not publish`;
    await expectRefused(token, message);
    expect(issuer.jwksFetches).toBe(before + 1);
    // Within the cooldown, another unknown key id costs no fetch.
    const again = await forged(stranger.privateKey, { alg: "RS256", kid: "stranger-2" });
    await expectRefused(
      again,
      `the access token is signed with a key (kid "stranger-2") that ${issuer.url} does not publish`,
    );
    expect(issuer.jwksFetches).toBe(before + 1);
  });

  it("accepts a token signed with a rotated key, once the cooldown allows a refetch", async () => {
    await issuer.rotate();
    advance(31_000);
    const token = await issuer.token(resource(), ["mcp"]);
    expect(jose.decodeProtectedHeader(token).kid).toBe(issuer.key.kid);
    const answer = await callTool("echo", token, { arguments: { text: "rotated" } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: { content: [{ type: "text", text: "rotated" }] } });
  });

  it("a requestState replayed by another caller", async () => {
    const ann = await issuer.token(resource(), ["mcp", "notes:read"]);
    const asked = await callTool("confirm", ann);
    const result = asked.body.result as { resultType: string; requestState: string };
    expect(result.resultType).toBe("input_required");
    const replay = {
      requestState: result.requestState,
      inputResponses: { "elicitation-1": { action: "accept", content: { ok: true } } },
    };
    const bob = await issuer.token(resource(), ["mcp", "notes:read"], OTHER_APP);
    expect(await callTool("confirm", bob, replay)).toEqual({
      status: 400,
      challenge: null,
      body: {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32602,
          message:
            "Invalid params: requestState was issued to another caller (the access token names someone else); send this request without requestState and inputResponses",
        },
      },
    });
    const answered = await callTool("confirm", ann, replay);
    expect(answered.body).toMatchObject({ result: { content: [{ text: "accept" }] } });
  });
});
