/**
 * One HTTP security suite, run against every door a server directory can be
 * served through: `mcp-dir serve --http`, and its built bundle on Node, Bun,
 * Deno (as a program and under `deno serve`) and workerd. Each is given a
 * token the way its runtime gives settings, and each must give the same
 * answers: what a hostile web page or a caller without the token can send is
 * refused alike everywhere, and a well-formed call is served.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../http/helpers.js";
import { EXAMPLE_SERVER, stopAll } from "../http-cli/helpers.js";
import {
  builtExample,
  DOORS,
  type Door,
  startDoor,
  stopWorkers,
  targetOf,
} from "./helpers/runtimes.js";

const TOKEN = "every-door-token";
const ENV = { MCP_DIR_AUTH_TOKEN: TOKEN };

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name: "calculator", arguments: { operation: "add", a: 2, b: 3 }, _meta: ENVELOPE },
});

/** What a well-behaved 2026-07-28 client sends with CALL. */
function callHeaders(host: string): Record<string, string> {
  return {
    host,
    authorization: `Bearer ${TOKEN}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "calculator",
  };
}

function errorOf(body: string): { code: number; message: string } {
  return (JSON.parse(body) as { error: { code: number; message: string } }).error;
}

/** example-server built for every target a door runs, side by side (once per run: see buildExample). */
beforeAll(async () => {
  const targets = new Set(DOORS.map(targetOf).filter((target) => target !== undefined));
  await Promise.all([...targets].map(builtExample));
});

afterAll(async () => {
  await stopAll();
  await stopWorkers();
});

describe.each(DOORS)("the HTTP door of %s", (door: Door) => {
  let url: string;
  let host: string;
  const send = (options: Parameters<typeof rawRequest>[1]) => rawRequest(url, options);

  beforeAll(async () => {
    const target = targetOf(door);
    url = await startDoor(
      door,
      { dir: EXAMPLE_SERVER, out: target === undefined ? "" : await builtExample(target) },
      ENV,
    );
    host = new URL(url).host;
  });

  it("serves a well-formed 2026-07-28 call", async () => {
    const response = await send({ headers: callHeaders(host), body: CALL });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      jsonrpc: "2.0",
      id: 7,
      result: { content: [{ type: "text", text: "5" }] },
    });
  });

  // A Worker runs nothing for a request once it is answered (short of ctx.waitUntil): a
  // task's run stops with its tools/call there, so tasks are for the doors that live on.
  it.skipIf(door === "workerd")("runs a tool as a task, to its end", async () => {
    const post = async (method: string, params: Record<string, unknown>, name: string) => {
      const response = await send({
        headers: { ...callHeaders(host), "mcp-method": method, "mcp-name": name },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 8,
          method,
          params: {
            ...params,
            _meta: {
              ...ENVELOPE,
              "io.modelcontextprotocol/clientCapabilities": {
                extensions: { "io.modelcontextprotocol/tasks": {} },
              },
            },
          },
        }),
      });
      // A call that reported progress first answers on a stream: its last event is the response.
      const events = response.body.split("\n").filter((line) => line.startsWith("data:"));
      return JSON.parse(events.length > 0 ? (events.at(-1) ?? "").slice(5) : response.body).result;
    };
    const created = await post(
      "tools/call",
      { name: "report", arguments: { pauseMs: 0 } },
      "report",
    );
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    let task = await post("tasks/get", { taskId: created.taskId }, created.taskId);
    while (task.status === "working")
      task = await post("tasks/get", { taskId: created.taskId }, created.taskId);
    expect(task).toMatchObject({ status: "completed", result: { content: [{ type: "text" }] } });
  });

  it("refuses what a web page on another site can send without a preflight", async () => {
    const response = await send({
      headers: {
        ...callHeaders("evil.com"),
        origin: "http://evil.example",
        "content-type": "text/plain",
        accept: "*/*",
      },
      body: CALL,
    });
    expect(response.status).toBe(403);
    // Workers accept any Host (Cloudflare routes by it), so there the Origin is what is refused.
    expect(errorOf(response.body).message).toMatch(
      /^Forbidden: (Host "evil\.com"|Origin "http:\/\/evil\.example") is not allowed/,
    );
  });

  it("refuses a page of another origin", async () => {
    const response = await send({
      headers: { ...callHeaders(host), origin: "http://evil.example" },
      body: CALL,
    });
    expect([response.status, errorOf(response.body)]).toEqual([
      403,
      {
        code: -32000,
        message:
          'Forbidden: Origin "http://evil.example" is not allowed; add it to allowedOrigins to accept requests from that page',
      },
    ]);
  });

  it("asks a caller without the token to authorize, naming the metadata", async () => {
    const { authorization: _, ...anonymous } = callHeaders(host);
    const response = await send({ headers: anonymous, body: CALL });
    expect([response.status, response.headers["www-authenticate"]]).toEqual([
      401,
      `Bearer resource_metadata="http://${host}/.well-known/oauth-protected-resource/mcp"`,
    ]);
    const wrong = await send({
      headers: { ...callHeaders(host), authorization: "Bearer not-the-token" },
      body: CALL,
    });
    expect([wrong.status, errorOf(wrong.body).message]).toEqual([
      401,
      "Unauthorized: the bearer token is not valid for this server",
    ]);
    expect(wrong.headers["www-authenticate"]).toMatch(/^Bearer error="invalid_token"/);
  });

  it("publishes the protected-resource metadata", async () => {
    const response = await send({
      method: "GET",
      path: "/.well-known/oauth-protected-resource/mcp",
      headers: { host },
    });
    expect([response.status, JSON.parse(response.body)]).toEqual([
      200,
      {
        resource: `http://${host}/mcp`,
        bearer_methods_supported: ["header"],
        resource_name: "example-server",
      },
    ]);
  });

  it("refuses a body that is not JSON, a client that takes no JSON, and other methods", async () => {
    const plain = await send({
      headers: { ...callHeaders(host), "content-type": "text/plain" },
      body: CALL,
    });
    expect([plain.status, errorOf(plain.body).message]).toEqual([
      415,
      'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json (got "text/plain")',
    ]);
    const { accept: _, ...noAccept } = callHeaders(host);
    const unacceptable = await send({ headers: noAccept, body: CALL });
    expect([unacceptable.status, errorOf(unacceptable.body).message]).toEqual([
      406,
      'Not Acceptable: a POST must send Accept: application/json, text/event-stream (got "none")',
    ]);
    const put = await send({ method: "PUT", headers: callHeaders(host), body: CALL });
    expect([put.status, put.headers.allow]).toEqual([405, "POST, GET, DELETE"]);
  });

  it("refuses a body declared over the limit before reading it", async () => {
    const response = await send({
      headers: { ...callHeaders(host), "content-length": 5 * 1024 * 1024 },
      body: "{}",
    });
    expect([response.status, errorOf(response.body).message]).toEqual([
      413,
      "Payload Too Large: the body exceeds 4194304 bytes; send a smaller message or raise maxBodyBytes",
    ]);
  });

  it("refuses headers that disagree with the body", async () => {
    const response = await send({
      headers: { ...callHeaders(host), "mcp-name": "primes" },
      body: CALL,
    });
    expect([response.status, errorOf(response.body)]).toEqual([
      400,
      {
        code: -32020,
        message:
          'Header mismatch: the Mcp-Name header "primes" does not match the body\'s value "calculator"',
      },
    ]);
  });

  it("answers /health without the token", async () => {
    const response = await send({ method: "GET", path: "/health", headers: { host } });
    expect([response.status, response.body]).toEqual([200, '{"status":"ok"}']);
  });
});
