import { afterAll, describe, expect, it } from "vitest";
import { formatProblem, formatWarning, loadDirectory } from "../../src/loader/index.js";
import { connectToDirectory } from "../helpers/directory-client.js";
import { closeSdkClients } from "../server/helpers/sdk-client.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await closeSdkClients();
  await removeServerDirs();
});

const ECHO = 'export default { description: "Echo", handler: () => "echo" };\n';

describe("the server's name and version", () => {
  it("come from the directory's package.json without a config file", async () => {
    const dir = await createServerDir(
      { "tools/echo.ts": ECHO },
      { packageJson: { name: "weather", version: "2.1.0", type: "module" } },
    );
    const { config, problems } = await loadDirectory(dir);
    expect(problems).toEqual([]);
    expect(config).toEqual({ name: "weather", version: "2.1.0" });
  });

  it("fall back to the folder's name and 0.0.0", async () => {
    const dir = await createServerDir({ "tools/echo.ts": ECHO }, { packageJson: false });
    const { config } = await loadDirectory(dir);
    expect(config).toEqual({ name: dir.split(/[/\\]/).pop(), version: "0.0.0" });
  });
});

describe("mcp-dir.config.ts", () => {
  it("configures what a real client sees: server info, instructions, page size", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.ts": `import { defineConfig } from "mcp-dir";
export default defineConfig({
  name: "configured",
  version: "3.0.0",
  title: "Configured server",
  instructions: "Use the tools in order.",
  pageSize: 1,
  http: { port: 8080, path: "/mcp" },
});
`,
      "tools/a.ts": ECHO,
      "tools/b.ts": ECHO,
    });
    const { config } = await loadDirectory(dir);
    expect(config).toEqual({
      name: "configured",
      version: "3.0.0",
      title: "Configured server",
      instructions: "Use the tools in order.",
      pageSize: 1,
      http: { port: 8080, path: "/mcp" },
      file: "mcp-dir.config.ts",
    });
    const { client } = await connectToDirectory(dir);
    expect(client.getServerVersion()).toEqual({
      name: "configured",
      version: "3.0.0",
      title: "Configured server",
    });
    expect(client.getInstructions()).toBe("Use the tools in order.");
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(["a"]);
    const second = await client.listTools({ cursor: first.nextCursor });
    expect(second.tools.map((tool) => tool.name)).toEqual(["b"]);
  });

  it("reports every invalid option and warns about unknown ones (JSON config)", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({
        name: "",
        pageSize: 0,
        logLevel: "loud",
        http: { port: 70000 },
        inputRounds: { maxRounds: -1 },
        callTimeoutMs: -1,
        maxResultBytes: "16MB",
        maxSubscriptions: 1.5,
        memoryBudgetBytes: -1,
        tasks: { ttlMs: 0, maxTasks: 2, store: "redis" },
        instructons: "typo",
      }),
    });
    const { problems, warnings, config } = await loadDirectory(dir);
    expect(problems.map(formatProblem)).toEqual([
      "mcp-dir.config.json: name must be non-empty text",
      "mcp-dir.config.json: pageSize must be a positive integer",
      "mcp-dir.config.json: logLevel must be one of debug, info, notice, warning, error, critical, alert, emergency",
      "mcp-dir.config.json: http.port must be an integer from 0 to 65535",
      "mcp-dir.config.json: inputRounds.maxRounds must be a whole number of 1 or more, got -1",
      "mcp-dir.config.json: callTimeoutMs must be a whole number of milliseconds from 0 (no limit) to 2147483647, not -1",
      "mcp-dir.config.json: maxResultBytes must be a whole number of bytes, 0 (no limit) or more",
      "mcp-dir.config.json: maxSubscriptions must be a whole number of 0 or more",
      "mcp-dir.config.json: memoryBudgetBytes must be a whole number of bytes, 0 (no limit) or more",
      "mcp-dir.config.json: tasks.ttlMs must be a whole number of 1 or more",
    ]);
    expect(warnings.map(formatWarning)).toEqual([
      'mcp-dir.config.json: "instructons" is not an option and is ignored; the options are name, version, title, description, instructions, pageSize, logLevel, inputRounds, callTimeoutMs, maxResultBytes, maxSubscriptions, memoryBudgetBytes, tasks, redis, middleware, include, exclude, http',
    ]);
    expect(config.name).toBe(dir.split(/[/\\]/).pop());
  });

  it("checks redis as serve will, naming the file and the key", async () => {
    const problemsOf = async (redis: unknown) => {
      const dir = await createServerDir({ "mcp-dir.config.json": JSON.stringify({ redis }) });
      return (await loadDirectory(dir)).problems.map(formatProblem);
    };
    expect(await problemsOf("localhost:6379")).toEqual([
      'mcp-dir.config.json: redis must be a redis:// or rediss:// URL, such as redis://127.0.0.1:6379, got "localhost:6379"',
    ]);
    expect(await problemsOf({ url: "https://cache.example.com", leaseMs: 10 })).toEqual([
      'mcp-dir.config.json: redis.url must be a redis:// or rediss:// URL, such as redis://127.0.0.1:6379, got "https://cache.example.com"',
    ]);
    expect(await problemsOf({ leaseMs: 10 })).toEqual([
      "mcp-dir.config.json: redis.leaseMs must be a whole number of milliseconds, 100 or more",
    ]);
    expect(await problemsOf({ prefix: 1 })).toEqual([
      "mcp-dir.config.json: redis.prefix must be text",
    ]);
    expect(await problemsOf({ host: "127.0.0.1" })).toEqual([
      'mcp-dir.config.json: redis must hold only url, prefix and leaseMs, not "host"',
    ]);
    expect(await problemsOf(6379)).toEqual([
      'mcp-dir.config.json: redis must be a redis:// URL, or an object such as { url: "redis://127.0.0.1:6379", prefix: "weather:", leaseMs: 10000 }',
    ]);
    expect(await problemsOf({ url: "redis://:secret@127.0.0.1:6379", leaseMs: 5000 })).toEqual([]);
  });

  it("checks http.auth as the HTTP transport will, naming the file", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({ http: { auth: { issuer: "id.example.com" } } }),
    });
    expect((await loadDirectory(dir)).problems.map(formatProblem)).toEqual([
      'mcp-dir.config.json: http.auth.issuer must be an absolute http(s) URL without a fragment, such as "https://id.example.com", got "id.example.com"',
    ]);
  });

  it("warns of an unknown field of http.auth, its introspection and http.replay", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({
        http: {
          auth: {
            issuer: "https://id.example.com",
            audiance: "https://mcp.example.com/mcp",
            introspection: {
              clientId: "mcp",
              clientSecret: "s",
              endpont: "https://id.example.com/i",
            },
          },
          replay: { maxEvent: 50 },
        },
      }),
    });
    const { problems, warnings } = await loadDirectory(dir);
    expect(problems).toEqual([]);
    expect(warnings.map(formatWarning)).toEqual([
      'mcp-dir.config.json: "http.auth.audiance" is not an option and is ignored; the http.auth options are issuer, audience, jwksUri, algorithms, clockToleranceSeconds, introspection, verifyToken',
      'mcp-dir.config.json: "http.auth.introspection.endpont" is not an option and is ignored; the http.auth.introspection options are clientId, clientSecret, endpoint',
      'mcp-dir.config.json: "http.replay.maxEvent" is not an option and is ignored; the http.replay options are maxEvents, maxBytes, maxTotalBytes',
    ]);
  });

  it("refuses an allowed origin no browser sends, saying what to write", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({
        http: { allowedOrigins: ["https://app.example.com/"] },
      }),
    });
    expect((await loadDirectory(dir)).problems.map(formatProblem)).toEqual([
      'mcp-dir.config.json: http.allowedOrigins[0] must be an origin as browsers send it in the Origin header (scheme://host[:port], no path, not even "/"), such as "https://app.example.com", got "https://app.example.com/"; write "https://app.example.com"',
    ]);
  });

  it("refuses an allowed host no Host header names, saying what to write", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({ http: { allowedHosts: [""] } }),
    });
    expect((await loadDirectory(dir)).problems.map(formatProblem)).toEqual([
      'mcp-dir.config.json: http.allowedHosts[0] must be a host name as clients send it in the Host header, with no scheme, port or path (every port is accepted), such as "mcp.example.com", got ""; leave it out: it would accept only requests whose Host header is empty',
    ]);
  });

  it("refuses an SSE period a timer cannot hold, naming the file and the key", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({ http: { keepAliveMs: 3_000_000_000 } }),
    });
    expect((await loadDirectory(dir)).problems.map(formatProblem)).toEqual([
      "mcp-dir.config.json: http.keepAliveMs must be a whole number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest a timer waits), got 3000000000",
    ]);
  });

  it("shows a number written as text in quotes, so the quotes are seen to be the problem", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({
        http: { maxSessions: "10", keepAliveMs: "5000", maxConnections: "8" },
      }),
    });
    expect((await loadDirectory(dir)).problems.map(formatProblem)).toEqual([
      'mcp-dir.config.json: http.maxSessions must be a whole number of 1 or more, got "10"',
      'mcp-dir.config.json: http.keepAliveMs must be a whole number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest a timer waits), got "5000"',
      'mcp-dir.config.json: http.maxConnections must be a whole number of 0 (no limit) or more, got "8"',
    ]);
  });

  it("refuses an authorization server that is not a URL: clients would follow it from the metadata", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({ http: { authorizationServers: ["nope"] } }),
    });
    expect((await loadDirectory(dir)).problems.map(formatProblem)).toEqual([
      'mcp-dir.config.json: http.authorizationServers[0] must be an absolute http(s) URL without a fragment, such as "https://id.example.com", got "nope"',
    ]);
  });

  it("must be one file, exporting an object as default", async () => {
    const two = await createServerDir({
      "mcp-dir.config.ts": "export default {};\n",
      "mcp-dir.config.json": "{}",
    });
    expect((await loadDirectory(two)).problems.map(formatProblem)).toEqual([
      "mcp-dir.config.ts: found several configuration files (mcp-dir.config.ts, mcp-dir.config.json); keep one",
    ]);
    const noDefault = await createServerDir({ "mcp-dir.config.mjs": "export const name = 'x';\n" });
    expect((await loadDirectory(noDefault)).problems.map(formatProblem)).toEqual([
      'mcp-dir.config.mjs: exports no default: export the configuration as default, e.g. export default defineConfig({ name: "my-server" })',
    ]);
    // A promise or a function is an object too: its options must not be missed in silence.
    const promise = await createServerDir({
      "mcp-dir.config.ts": 'export default Promise.resolve({ name: "later" });\n',
    });
    expect((await loadDirectory(promise)).problems.map(formatProblem)).toEqual([
      "mcp-dir.config.ts: exports a promise as default; export the options object itself, with await at the top level for what it needs, e.g. export default defineConfig({ instructions: await loadInstructions() })",
    ]);
    const fn = await createServerDir({
      "mcp-dir.config.ts": 'export default () => ({ name: "later" });\n',
    });
    expect((await loadDirectory(fn)).problems.map(formatProblem)).toEqual([
      'mcp-dir.config.ts: exports a function as default; export the options object itself, e.g. export default defineConfig({ name: "my-server" })',
    ]);
    const badJson = await createServerDir({ "mcp-dir.config.json": "{ name: 1 }" });
    expect((await loadDirectory(badJson)).problems.map(formatProblem)).toEqual([
      "mcp-dir.config.json: is not valid JSON: Expected property name or '}' in JSON (1:3)",
    ]);
  });
});
