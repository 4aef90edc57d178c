/**
 * The HTTP flags of the real CLI: --auth-token and MCP_DIR_AUTH_TOKEN, --path,
 * --host, the security defaults seen from outside, and usage errors with their
 * exact messages.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import {
  connect,
  initializeRequest,
  post,
  postHeaders,
  runCli,
  type ServerHere,
  startCli,
  startCliHere,
  stopAll,
} from "./helpers.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

/**
 * What the flags' cases serve: two Markdown prompts, quick to load (no
 * TypeScript to transform, no view to build). They are about the flags, not
 * about what is served; the first case, which counts example-server's tools,
 * serves example-server.
 */
let small: string;
beforeAll(async () => {
  small = await createServerDir({
    "prompts/hello.md": "Say hello\n",
    "prompts/goodbye.md": "Say goodbye\n",
  });
});

/**
 * Every case starts servers of its own, or only sends requests to the plain one, or runs
 * the CLI to its end: the describes and their cases run at once.
 */

/** `serve <small> --http --port 0` and `flags`. */
const serve = (...flags: string[]) => ["serve", small, "--http", "--port", "0", ...flags];

let plain: Promise<ServerHere> | undefined;
/** `serve --http` with no option: started once, for the cases that only send it requests. */
const plainServer = () => {
  plain ??= startCliHere(serve());
  return plain;
};

/** A POST initialize with these extra headers: its status and WWW-Authenticate. */
async function initializeWith(url: string, headers: Record<string, string> = {}) {
  const response = await post(url, initializeRequest(), postHeaders(undefined, headers));
  const body = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate"),
    body: body === "" ? undefined : JSON.parse(body),
  };
}

/** A POST initialize over node:http, which (unlike fetch) sends the Host header it is given. */
function initializeRaw(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { ...postHeaders(), ...headers },
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(initializeRequest()));
  });
}

async function withHost(url: string, host: string): Promise<number> {
  return (await initializeRaw(url, { host })).status;
}

describe.concurrent("--auth-token", () => {
  it("refuses a request without the token with 401 and an RFC 9728 challenge; the SDK client with it gets in", async ({
    expect,
  }) => {
    const server = await startCliHere([
      "serve",
      "example-server",
      "--http",
      "--port",
      "0",
      "--auth-token",
      "s3cret-flag",
    ]);
    const metadataUrl = `${server.origin}/.well-known/oauth-protected-resource/mcp`;

    const without = await initializeWith(server.url);
    expect(without.status).toBe(401);
    expect(without.challenge).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    expect(without.body).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: "Unauthorized: send the server's token as Authorization: Bearer <token>",
      },
    });
    const wrong = await initializeWith(server.url, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.challenge).toBe(
      `Bearer error="invalid_token", resource_metadata="${metadataUrl}"`,
    );
    const right = await initializeWith(server.url, { authorization: "Bearer s3cret-flag" });
    expect(right.status).toBe(200);

    const { client } = await connect(server.url, {
      headers: { authorization: "Bearer s3cret-flag" },
    });
    // Ten tools, less poll_vote, which only the poll view calls.
    expect((await client.listTools()).tools).toHaveLength(9);
    expect(await client.ping()).toEqual({});

    const metadata = await fetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: server.url,
      bearer_methods_supported: ["header"],
      resource_name: "example-server",
    });
    // /health stays open for load balancers; it tells nothing about the server.
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
    // The token never appears in the output.
    expect(server.stderr()).not.toContain("s3cret-flag");
  });

  it("comes from MCP_DIR_AUTH_TOKEN when the flag is not given", async ({ expect }) => {
    const server = await startCli(serve(), { env: { MCP_DIR_AUTH_TOKEN: "s3cret-env" } });
    expect((await initializeWith(server.url)).status).toBe(401);
    expect((await initializeWith(server.url, { authorization: "Bearer s3cret-env" })).status).toBe(
      200,
    );
    const { client } = await connect(server.url, {
      headers: { authorization: "Bearer s3cret-env" },
    });
    expect(await client.ping()).toEqual({});
    expect(server.stderr()).not.toContain("s3cret-env");
  });

  it("the flag wins over the environment", async ({ expect }) => {
    const server = await startCli(serve("--auth-token", "from-flag"), {
      env: { MCP_DIR_AUTH_TOKEN: "from-env" },
    });
    expect((await initializeWith(server.url, { authorization: "Bearer from-env" })).status).toBe(
      401,
    );
    expect((await initializeWith(server.url, { authorization: "Bearer from-flag" })).status).toBe(
      200,
    );
  });

  it("is off without either: no challenge, and no metadata published", async ({ expect }) => {
    const server = await plainServer();
    expect((await initializeWith(server.url)).status).toBe(200);
    const metadata = await fetch(`${server.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(404);
    await metadata.body?.cancel();
  });
});

describe.concurrent("--path and --host", () => {
  it("--path moves the endpoint; the banner says where, and the old path is 404", async ({
    expect,
  }) => {
    const server = await startCliHere(serve("--path", "/team/mcp"));
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/team\/mcp$/);
    const { client } = await connect(server.url);
    expect((await client.listPrompts()).prompts).toHaveLength(2);
    const old = await post(`${server.origin}/mcp`, initializeRequest(), postHeaders());
    expect(old.status).toBe(404);
    expect(await old.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Not Found: the MCP endpoint is /team/mcp" },
    });
  });

  it("binds loopback by default and refuses a foreign Host or Origin with 403 (DNS rebinding)", async ({
    expect,
  }) => {
    const server = await plainServer();
    expect(new URL(server.url).hostname).toBe("127.0.0.1");
    const { port } = new URL(server.url);
    expect(await withHost(server.url, `localhost:${port}`)).toBe(200);
    expect(await withHost(server.url, `evil.example.com:${port}`)).toBe(403);
    const origin = await initializeWith(server.url, { origin: "http://evil.example.com" });
    expect(origin.status).toBe(403);
    expect(origin.body.error.message).toMatch(/^Forbidden: Origin "http:\/\/evil\.example\.com"/);
    const sameOrigin = await initializeWith(server.url, { origin: `http://localhost:${port}` });
    expect(sameOrigin.status).toBe(200);
  });

  it("--host names the interface; the banner's URL uses it", async ({ expect }) => {
    const server = await startCliHere(serve("--host", "localhost"));
    expect(server.url).toMatch(/^http:\/\/localhost:\d+\/mcp$/);
    const { client } = await connect(server.url);
    expect(await client.ping()).toEqual({});
  });
});

describe.concurrent("beyond loopback", () => {
  it("--host 0.0.0.0 without a token is refused: exit 1, saying what to do", async ({ expect }) => {
    expect(await runCli(serve("--host", "0.0.0.0"))).toEqual({
      code: 1,
      signal: null,
      stdout: "",
      stderr:
        "mcp-dir: Refusing to listen on 0.0.0.0 without authentication: any machine that can reach it could call every tool. Set MCP_DIR_AUTH_TOKEN (or --auth-token, authToken) to require a bearer token, or MCP_DIR_AUTH_ISSUER (--auth-issuer, auth.issuer) to accept OAuth access tokens, or pass --allow-unauthenticated-remote (allowUnauthenticatedRemote: true) if the server is meant to be open\n",
    });
  });

  it("--allow-unauthenticated-remote serves it open, and still refuses a rebound page", async ({
    expect,
  }) => {
    const server = await startCliHere(serve("--host", "0.0.0.0", "--allow-unauthenticated-remote"));
    const { port } = new URL(server.url);
    expect(await withHost(server.url, `mcp.example.com:${port}`)).toBe(200);
    const rebound = await initializeRaw(server.url, {
      host: `evil.example.com:${port}`,
      origin: `http://evil.example.com:${port}`,
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: `Forbidden: Origin "http://evil.example.com:${port}" is not allowed; add it to allowedOrigins to accept requests from that page`,
      },
    });
  });

  it("with MCP_DIR_AUTH_TOKEN, --host 0.0.0.0 serves and wants the token", async ({ expect }) => {
    const server = await startCli(serve("--host", "0.0.0.0"), {
      env: { MCP_DIR_AUTH_TOKEN: "s3cret" },
    });
    expect((await initializeWith(server.url)).status).toBe(401);
    const { client } = await connect(server.url, {
      headers: { authorization: "Bearer s3cret" },
    });
    expect(await client.ping()).toEqual({});
  });
});

describe.concurrent("--max-sessions", () => {
  it("answers one initialize too many with 503 and how to raise the bound", async ({ expect }) => {
    const server = await startCliHere(serve("--max-sessions", "1"));
    expect((await initializeWith(server.url)).status).toBe(200);
    expect(await initializeWith(server.url)).toEqual({
      status: 503,
      challenge: null,
      body: {
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message:
            "Service Unavailable: the server already holds its limit of 1 sessions; end one (DELETE) or try again later, or raise maxSessions (--max-sessions)",
        },
      },
    });
  });
});

describe.concurrent("usage errors, exit 2 with the exact message", () => {
  const cases: Array<[string[], string]> = [
    [
      ["serve", "example-server", "--port", "3000"],
      "mcp-dir: --port needs --http. See 'mcp-dir serve --help'",
    ],
    [
      ["dev", "example-server", "--host", "0.0.0.0"],
      "mcp-dir: --host needs --http. See 'mcp-dir dev --help'",
    ],
    [
      ["serve", "example-server", "--auth-token", "t"],
      "mcp-dir: --auth-token needs --http. See 'mcp-dir serve --help'",
    ],
    [
      ["serve", "example-server", "--http", "--port", "http"],
      "mcp-dir: --port must be a number from 0 to 65535, got 'http'. See 'mcp-dir serve --help'",
    ],
    [
      ["serve", "example-server", "--http", "--port", "65536"],
      "mcp-dir: --port must be a number from 0 to 65535, got '65536'. See 'mcp-dir serve --help'",
    ],
    [
      ["serve", "example-server", "--http", "--port=-1"],
      "mcp-dir: --port must be a number from 0 to 65535, got '-1'. See 'mcp-dir serve --help'",
    ],
    [
      ["serve", "example-server", "--http", "--port", "80.5"],
      "mcp-dir: --port must be a number from 0 to 65535, got '80.5'. See 'mcp-dir serve --help'",
    ],
    [
      ["serve", "example-server", "--http", "--port"],
      "mcp-dir: Option '--port <value>' argument missing. See 'mcp-dir serve --help'",
    ],
    [
      ["serve", "example-server", "--http", "--path", "mcp"],
      `mcp-dir: --path must start with "/" and hold no query, fragment or space, got 'mcp'. See 'mcp-dir serve --help'`,
    ],
    [
      ["dev", "example-server", "--http", "--host="],
      "mcp-dir: --host must not be empty. See 'mcp-dir dev --help'",
    ],
    [
      ["serve", "example-server", "--allow-unauthenticated-remote"],
      "mcp-dir: --allow-unauthenticated-remote needs --http. See 'mcp-dir serve --help'",
    ],
    [
      ["serve", "example-server", "--http", "--max-sessions", "0"],
      "mcp-dir: --max-sessions must be a whole number of 1 or more, got '0'. See 'mcp-dir serve --help'",
    ],
    [
      ["dev", "example-server", "--http", "--max-sessions", "many"],
      "mcp-dir: --max-sessions must be a whole number of 1 or more, got 'many'. See 'mcp-dir dev --help'",
    ],
    [
      ["serve", "example-server", "--http", "--max-sessions-per-caller", "0"],
      "mcp-dir: --max-sessions-per-caller must be a whole number of 1 or more, got '0'. See 'mcp-dir serve --help'",
    ],
    [
      ["dev", "example-server", "--max-sessions-per-caller", "5"],
      "mcp-dir: --max-sessions-per-caller needs --http. See 'mcp-dir dev --help'",
    ],
    [
      ["serve", "example-server", "--http", "--auth-token="],
      "mcp-dir: --auth-token must be a non-empty token without spaces. See 'mcp-dir serve --help'",
    ],
  ];
  for (const [args, message] of cases) {
    it(`mcp-dir ${args.join(" ")}`, async ({ expect }) => {
      expect(await runCli(args)).toEqual({
        code: 2,
        signal: null,
        stdout: "",
        stderr: `${message}\n`,
      });
    });
  }

  it("refuses a token with spaces from MCP_DIR_AUTH_TOKEN", async ({ expect }) => {
    expect(
      await runCli(["serve", "example-server", "--http"], {
        env: { MCP_DIR_AUTH_TOKEN: "two words" },
      }),
    ).toEqual({
      code: 2,
      signal: null,
      stdout: "",
      stderr:
        "mcp-dir: MCP_DIR_AUTH_TOKEN must be a token without spaces. See 'mcp-dir serve --help'\n",
    });
  });

  it("refuses an empty MCP_DIR_AUTH_TOKEN rather than serving without auth", async ({ expect }) => {
    expect(
      await runCli(["serve", "example-server", "--http"], { env: { MCP_DIR_AUTH_TOKEN: "" } }),
    ).toEqual({
      code: 2,
      signal: null,
      stdout: "",
      stderr:
        "mcp-dir: MCP_DIR_AUTH_TOKEN is set but empty; set it to a token, or unset it to serve without auth. See 'mcp-dir serve --help'\n",
    });
  });

  it("an empty host in mcp-dir.config.ts is refused, not read as every interface: exit 1", async ({
    expect,
  }) => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({ http: { host: "" } }),
      "prompts/hello.md": "Hello\n",
    });
    expect(await runCli(["serve", dir, "--http", "--port", "0"])).toEqual({
      code: 1,
      signal: null,
      stdout: "",
      stderr: `error: mcp-dir.config.json: http.host must be non-empty text; leave it unset to bind 127.0.0.1 (this machine only)
mcp-dir: 1 problem in ${dir}; fix it and run again
`,
    });
  });

  it("a port already in use: says so and exits 1", async ({ expect }) => {
    const first = await plainServer();
    const { port } = new URL(first.url);
    expect(await runCli(["serve", small, "--http", "--port", port])).toEqual({
      code: 1,
      signal: null,
      stdout: "",
      stderr: `mcp-dir: Cannot listen on 127.0.0.1:${port}: the port is in use; choose another port (0 picks a free one)\n`,
    });
    expect((await fetch(`${first.origin}/health`)).status).toBe(200);
  });
});
