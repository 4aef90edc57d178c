/**
 * How a built bundle takes its settings on each runtime that runs it as a
 * program (Node, Bun, Deno), and what it says when they are wrong: the same
 * options and messages as `mcp-dir serve`, the token read from the runtime's
 * environment, an open non-loopback bind refused, and a permission Deno
 * withholds named at start. A Worker's are in worker-settings.test.ts.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRANSPORT_HELP } from "../../src/cli/serve-options.js";
import { startIssuer } from "../auth/helpers/issuer.js";
import { runCli } from "../cli/helpers/cli.js";
import { rawRequest } from "../http/helpers.js";
import { spawnProgram, stopAll } from "../http-cli/helpers.js";
import {
  BUNDLE,
  builtExample,
  bundleCommand,
  DENO,
  denoServe,
  NO_REDIS,
  runBundle,
  type Target,
} from "./helpers/runtimes.js";

/** Where example-server was built for each target (once per run: see buildExample). */
let outs: Record<Target, string>;
const out = (target: Target) => outs[target];

/**
 * A bundle of example-server's --help, run as `program`: serve's transport options, every
 * variable the bundle reads, and what it sets.
 */
function bundleHelp(program: string, runtime: "node" | "bun" | "deno"): string {
  const deno = `
Deno reads them only with --allow-env, or with just their names:
--allow-env=MCP_DIR_AUTH_TOKEN,MCP_DIR_AUTH_ISSUER,MCP_DIR_AUTH_AUDIENCE,MCP_DIR_STATE_KEY,MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE,MCP_DIR_REDIS_URL,PORT
and serves HTTP only with --allow-net.
`;
  return `Usage: ${program} [--http [options]]

Serves example-server 1.0.0, an MCP server built by mcp-dir build, over stdio,
or over Streamable HTTP with --http (at /mcp on 127.0.0.1:3000 unless the
options, PORT or the build's mcp-dir.config say otherwise), as
\`mcp-dir serve\` does.

Options:
${TRANSPORT_HELP}
  -h, --help           Show this help

Environment (a flag given wins over its variable):
  MCP_DIR_AUTH_TOKEN   Require "Authorization: Bearer <token>" (as --auth-token)
  MCP_DIR_AUTH_ISSUER  Accept OAuth access tokens from this authorization
                       server (as --auth-issuer)
  MCP_DIR_AUTH_AUDIENCE
                       What tokens must carry in aud (as --auth-audience;
                       default: this endpoint's URL, as clients reach it)
  MCP_DIR_STATE_KEY    Signs requestState, for 2026-07-28 requests that ask the
                       client: 32 bytes or more, one secret on every replica
                       (default: a random key of this process)
  MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE
                       "1" or "true": as --allow-unauthenticated-remote
  MCP_DIR_REDIS_URL    Refused: a built bundle does not connect to Redis (run
                       the server directory with mcp-dir serve for that)
  PORT                 The HTTP port when --port is not given
${runtime === "deno" ? deno : ""}`;
}

const REFUSED_OPEN =
  "mcp-dir: Refusing to listen on 0.0.0.0 without authentication: any machine that can reach it could call every tool. Set MCP_DIR_AUTH_TOKEN (or --auth-token, authToken) to require a bearer token, or MCP_DIR_AUTH_ISSUER (--auth-issuer, auth.issuer) to accept OAuth access tokens, or pass --allow-unauthenticated-remote (allowUnauthenticatedRemote: true) if the server is meant to be open\n";

beforeAll(async () => {
  const targets = ["node", "bun", "deno"] as const;
  const built = await Promise.all(targets.map(builtExample));
  outs = Object.fromEntries(targets.map((target, i) => [target, built[i]])) as typeof outs;
});

afterAll(async () => {
  await stopAll();
});

/** A port something else already listens on. */
async function busyPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const { port } = holder.address() as { port: number };
  return { port, release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

/**
 * What the program wrote, without the advice Deno gives any module run with
 * `deno run` whose default export has a `fetch` (the same module serves `deno serve`).
 */
function ownLines(stderr: string): string {
  return stderr.replace(/^warning: Detected export default \{ fetch \}.*\n/m, "");
}

describe.each(["node", "bun", "deno"] as const)("a bundle run by %s", (runtime) => {
  const program = runtime === "deno" ? "deno run" : runtime;
  // Run by its absolute path (the run's shared folder is outside the working directory).
  const help = () => `${program} ${join(out(runtime), BUNDLE)} --help`;

  it("--help names the path it was run by and every variable it reads", async () => {
    // Run from the folder that holds the out folder, by the path a user types.
    const [folder, target] = [dirname(out(runtime)), basename(out(runtime))];
    const path = `${target}/${BUNDLE}`;
    const { command, args } = bundleCommand(runtime, target, ["--help"]);
    const running = spawnProgram(command, args, { cwd: folder });
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(running.stdout()).toBe("");
    expect(ownLines(running.stderr())).toBe(bundleHelp(`${program} ${path}`, runtime));
  });

  it("refuses to serve every interface without a token, in one line", async () => {
    const running = runBundle(runtime, out(runtime), ["--http", "--host", "0.0.0.0"]);
    expect(await running.exited).toEqual({ code: 1, signal: null });
    expect(ownLines(running.stderr())).toBe(REFUSED_OPEN);
  });

  it("takes the options serve takes, and says what is wrong with one as serve does", async () => {
    const running = runBundle(runtime, out(runtime), ["--port", "4000"]);
    expect(await running.exited).toEqual({ code: 2, signal: null });
    expect(ownLines(running.stderr())).toBe(`mcp-dir: --port needs --http. See '${help()}'\n`);
    const badPort = runBundle(runtime, out(runtime), ["--http"], { PORT: "abc" });
    expect(await badPort.exited).toEqual({ code: 2, signal: null });
    expect(ownLines(badPort.stderr())).toBe(
      `mcp-dir: PORT must be a number from 0 to 65535, got 'abc'. See '${help()}'\n`,
    );
    const portAfterHttp = runBundle(runtime, out(runtime), ["--http", "3000"]);
    expect(await portAfterHttp.exited).toEqual({ code: 2, signal: null });
    expect(ownLines(portAfterHttp.stderr())).toBe(
      `mcp-dir: --http takes no value, so '3000' was read as an argument and is one too many; for port 3000, write --http --port 3000. See '${help()}'\n`,
    );
  });

  it("refuses MCP_DIR_REDIS_URL at start, saying it does not connect to Redis", async () => {
    const running = runBundle(runtime, out(runtime), [], {
      MCP_DIR_REDIS_URL: "redis://127.0.0.1:6379",
    });
    expect(await running.exited).toEqual({ code: 1, signal: null });
    expect(ownLines(running.stderr())).toBe(`mcp-dir: ${NO_REDIS}\n`);
  });

  it("names a port in use, without a stack trace", async () => {
    const { port, release } = await busyPort();
    try {
      const running = runBundle(runtime, out(runtime), ["--http", "--port", String(port)]);
      expect(await running.exited).toEqual({ code: 1, signal: null });
      expect(ownLines(running.stderr())).toBe(
        `mcp-dir: Cannot listen on 127.0.0.1:${port}: the port is in use; choose another port (0 picks a free one)\n`,
      );
    } finally {
      await release();
    }
  });

  it("serves every interface with --auth-token, and asks for it", async () => {
    const running = runBundle(runtime, out(runtime), [
      "--http",
      "--host",
      "0.0.0.0",
      "--port",
      "0",
      "--auth-token",
      "flag-token",
    ]);
    const [, url = ""] = await running.waitForStderr(/ at (http:\/\/\S+)\n/);
    const anonymous = await rawRequest(url, { method: "GET", headers: { host: "localhost" } });
    expect(anonymous.status).toBe(401);
  });

  it("serves every interface without a token when MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE says so, as the flag does", async () => {
    const running = runBundle(
      runtime,
      out(runtime),
      ["--http", "--host", "0.0.0.0", "--port", "0"],
      {
        MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE: "1",
      },
    );
    const [, url = ""] = await running.waitForStderr(/ at (http:\/\/\S+)\n/);
    // Past the token check: refused only for the Accept it lacks.
    const anonymous = await rawRequest(url, { method: "GET", headers: { host: "localhost" } });
    expect(anonymous.status).toBe(406);
  });

  it("serves every interface with MCP_DIR_AUTH_ISSUER, verifying real tokens", async () => {
    const issuer = await startIssuer();
    const audience = "https://mcp.example.com/mcp";
    try {
      const running = runBundle(
        runtime,
        out(runtime),
        ["--http", "--host", "0.0.0.0", "--port", "0"],
        { MCP_DIR_AUTH_ISSUER: issuer.url, MCP_DIR_AUTH_AUDIENCE: audience },
      );
      const [, url = ""] = await running.waitForStderr(/ at (http:\/\/\S+)\n/);
      const ping = async (token: string) =>
        rawRequest(url, {
          headers: {
            host: "localhost",
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "server/discover",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "server/discover",
            params: {
              _meta: {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
              },
            },
          }),
        });
      expect((await ping(await issuer.token(audience, ["mcp"]))).status).toBe(200);
      expect((await ping(await issuer.token("https://other.example.com", ["mcp"]))).status).toBe(
        401,
      );
    } finally {
      await issuer.close();
    }
  });
});

describe("deno run", () => {
  it("serves example-server (its Markdown prompts' front matter too) with --allow-env of just the variables it names", async () => {
    const named = [
      "MCP_DIR_AUTH_TOKEN",
      "MCP_DIR_AUTH_ISSUER",
      "MCP_DIR_AUTH_AUDIENCE",
      "MCP_DIR_STATE_KEY",
      "MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE",
      "MCP_DIR_REDIS_URL",
      "PORT",
    ];
    const bundle = join(out("deno"), BUNDLE);
    const running = spawnProgram(DENO, [
      "run",
      "--allow-net",
      `--allow-env=${named.join(",")}`,
      bundle,
      "--http",
      "--port",
      "0",
    ]);
    const [, url = ""] = await running.waitForStderr(/ at (http:\/\/\S+)\n/);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });
});

describe("deno serve", () => {
  it("names the permission it lacks at start, instead of failing every request", async () => {
    const running = denoServe(out("deno"), ["--allow-net", "--host", "127.0.0.1", "--port", "0"]);
    expect((await running.exited).code).not.toBe(0);
    expect(running.stderr()).toContain(
      "mcp-dir: Deno does not let this server read its settings from the environment (MCP_DIR_AUTH_TOKEN, MCP_DIR_AUTH_ISSUER, MCP_DIR_AUTH_AUDIENCE, MCP_DIR_STATE_KEY, MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE, MCP_DIR_REDIS_URL); run it with --allow-env (or --allow-env=MCP_DIR_AUTH_TOKEN,MCP_DIR_AUTH_ISSUER,MCP_DIR_AUTH_AUDIENCE,MCP_DIR_STATE_KEY,MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE,MCP_DIR_REDIS_URL)\n",
    );
    expect(running.stderr()).not.toContain("over stdio");
  });

  it("refuses to serve every interface (its default) without a token", async () => {
    const running = denoServe(out("deno"), ["--allow-net", "--allow-env", "--port", "0"]);
    expect((await running.exited).code).not.toBe(0);
    expect(running.stderr()).toContain(REFUSED_OPEN);
  });

  it("asks for the token MCP_DIR_AUTH_TOKEN names", async () => {
    const running = denoServe(
      out("deno"),
      ["--allow-net", "--allow-env", "--host", "127.0.0.1", "--port", "0"],
      { MCP_DIR_AUTH_TOKEN: "deno-token" },
    );
    const [, url = ""] = await running.waitForStderr(/ at (http:\/\/\S+)\n/);
    const host = new URL(url).host;
    const anonymous = await rawRequest(url, { method: "GET", headers: { host } });
    expect(anonymous.status).toBe(401);
  });
});

describe("a build whose config names a Redis", () => {
  it("fails, saying a bundle does not connect to Redis, and builds with only its other settings", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-dir-build-redis-"));
    try {
      await mkdir(join(dir, "resources"));
      await writeFile(join(dir, "resources", "hello.md"), "# Hello\n");
      const config = (redis: string) =>
        writeFile(join(dir, "mcp-dir.config.mjs"), `export default { redis: ${redis} };\n`);
      const build = () => runCli(["build", dir, "--out", join(dir, "out")]);
      await config('{ url: "redis://127.0.0.1:6379", prefix: "weather:" }');
      const refused = await build();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `error: mcp-dir.config.mjs: redis names a Redis, but a built bundle does not connect to Redis: its replicas would share no tasks, resource updates or 2025 streams. Remove the URL from the config to build, and give mcp-dir serve the Redis in MCP_DIR_REDIS_URL instead\nmcp-dir build: 1 problem in ${dir}; fix it and run again\n`,
      );
      // serve's prefix, with the URL from MCP_DIR_REDIS_URL: nothing for a bundle to refuse.
      await config('{ prefix: "weather:" }');
      expect(await build()).toMatchObject({ code: 0, stderr: "" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
