/**
 * `mcp-dir serve --http --auth-issuer` (and MCP_DIR_AUTH_ISSUER /
 * MCP_DIR_AUTH_AUDIENCE) against a real authorization server in the test:
 * the official v2 client's OAuth support gets a token and calls a tool that
 * reads `ctx.auth`; an ID token of that issuer refused where the audience is
 * a client's id (the Entra ID recipe); the flags' mistakes and an
 * unreachable issuer, each with its exact message and exit code.
 */
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ClientCredentialsProvider,
  Client as ClientV2,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP, startIssuer, type TestIssuer, WEB_APP } from "../auth/helpers/issuer.js";
import { postStateless } from "../helpers/stateless-post.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, startCli, stopAll } from "./helpers.js";

const WHO_AM_I = `import { defineTool } from "mcp-dir";

export default defineTool({
  description: "Says who is calling",
  scopes: ["notes:read"],
  handler: (_args, ctx) => \`\${ctx.auth?.subject} with \${ctx.auth?.scopes.join(" ")}\`,
});
`;

let issuer: TestIssuer;
let dir: string;
beforeAll(async () => {
  issuer = await startIssuer();
  dir = await createServerDir({ "tools/whoami.ts": WHO_AM_I });
});
afterAll(async () => {
  await stopAll();
  await removeServerDirs();
  await issuer?.close();
});

async function whoAmI(url: string): Promise<unknown> {
  const client = new ClientV2({ name: "cli-oauth", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  } as ConstructorParameters<typeof ClientV2>[1]);
  const authProvider = new ClientCredentialsProvider({ ...APP, expectedIssuer: issuer.url });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
  try {
    return (await client.callTool({ name: "whoami", arguments: {} })).content;
  } finally {
    await client.close();
  }
}

describe("serve --http with an authorization server", () => {
  it("--auth-issuer: the v2 client gets a token, steps up to the tool's scope, and is named in ctx.auth", async () => {
    const server = await startCli([
      "serve",
      dir,
      "--http",
      "--port",
      "0",
      "--auth-issuer",
      issuer.url,
    ]);
    expect(await whoAmI(server.url)).toEqual([{ type: "text", text: "app with notes:read" }]);
  });

  it("MCP_DIR_AUTH_ISSUER and MCP_DIR_AUTH_AUDIENCE do the same; the metadata names the audience", async () => {
    const server = await startCli(["serve", dir, "--http", "--port", "0"], {
      env: {
        MCP_DIR_AUTH_ISSUER: issuer.url,
        MCP_DIR_AUTH_AUDIENCE: "https://mcp.example.com/mcp",
      },
    });
    const metadata = await fetch(`${server.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({
      resource: "https://mcp.example.com/mcp",
      authorization_servers: [issuer.url],
      scopes_supported: ["notes:read"],
    });
  });

  it("--auth-audience a client's id (Entra ID's recipe): that client's ID token is refused, its access token passes", async () => {
    const entraLike = await startIssuer({ audience: () => WEB_APP.clientId });
    try {
      const server = await startCli([
        "serve",
        dir,
        "--http",
        "--port",
        "0",
        "--auth-issuer",
        entraLike.url,
        "--auth-audience",
        WEB_APP.clientId,
      ]);
      const { idToken, accessToken } = await entraLike.signIn(server.url, ["notes:read"], "n-42");
      const call = (token: string) =>
        postStateless(server.url, {
          id: 1,
          method: "tools/call",
          name: "whoami",
          params: { name: "whoami", arguments: {} },
          headers: { authorization: `Bearer ${token}` },
        });
      const refused = await call(idToken);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message:
            'Unauthorized: the access token is an OpenID Connect ID token (it carries "nonce"), not an access token; send the access token issued with it',
        },
      });
      const served = await call(accessToken);
      expect(served.status).toBe(200);
      expect(await served.json()).toMatchObject({
        result: { content: [{ type: "text", text: "ann with notes:read" }] },
      });
    } finally {
      await entraLike.close();
    }
  });

  it("an issuer out of reach stops the server at start, naming the URL", async () => {
    const http = createHttpServer();
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const gone = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => http.close(() => resolve()));
    const run = await runCli(["serve", dir, "--http", "--port", "0", "--auth-issuer", gone]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Cannot reach the authorization server ${gone}: fetching ${gone}/.well-known/oauth-authorization-server failed: fetch failed (ECONNREFUSED); check the issuer (--auth-issuer, auth.issuer) and that it is up`,
    );
  });

  it.each([
    [["--auth-issuer", "https://id.example.com"], {}, "--auth-issuer needs --http"],
    [
      ["--http", "--auth-issuer", "id.example.com"],
      {},
      "--auth-issuer must be an absolute http(s) URL without a fragment, such as https://id.example.com, got 'id.example.com'",
    ],
    [
      ["--http"],
      { MCP_DIR_AUTH_ISSUER: "" },
      "MCP_DIR_AUTH_ISSUER is set but empty; set it to a URL, or unset it",
    ],
  ])("%j (env %j) is a usage error: %s", async (args, env, message) => {
    const run = await runCli(["serve", dir, ...args], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mcp-dir: ${message}. See 'mcp-dir serve --help'\n`);
  });
});
