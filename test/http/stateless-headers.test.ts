/**
 * The request headers of 2026-07-28 over serveHttp: each checked against the
 * body it mirrors, each refusal exact (400 and -32020, the request id echoed),
 * and an unknown method a 404 whatever its name. An Mcp-Session-Id header,
 * which belongs to the 2025 revisions, is ignored, as 2026-07-28 has it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/index.js";
import { openSession, type Running, rawRequest, startFixture } from "./helpers.js";

const VERSION = "2026-07-28";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
};

let running: Running;
beforeAll(async () => {
  running = await startFixture();
  // A parameter mirrored into Mcp-Param-Shard, an integer: compared as a number.
  running.server.registry.update(
    new Map([
      [
        "tools/shard.ts",
        [
          {
            definition: defineTool({
              description: "Names its shard",
              input: { shard: z.number().int().meta({ "x-mcp-header": "Shard" }) },
              handler: ({ shard }) => `shard ${shard}`,
            }),
            fallbackName: "shard",
          },
        ],
      ],
    ]),
  );
});
afterAll(() => running.serving.close());

let nextId = 1;

/** POSTs one 2026 request with `headers` on top of the JSON ones; resolves to status and body. */
async function send(
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string>,
) {
  const id = nextId++;
  const response = await rawRequest(running.url, {
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: ENVELOPE } }),
  });
  return {
    id,
    status: response.status,
    headers: response.headers,
    body: JSON.parse(response.body),
  };
}

function refusal(id: number, code: number, message: string) {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

const MIRRORED = {
  "mcp-protocol-version": VERSION,
  "mcp-method": "tools/call",
  "mcp-name": "echo",
};
const ECHO = { name: "echo", arguments: { message: "hi" } };

describe("2026-07-28 request headers over HTTP", () => {
  it("serves a call whose headers mirror its body, Mcp-Name plain or in the base64 form", async () => {
    for (const name of ["echo", `=?base64?${Buffer.from("echo").toString("base64")}?=`]) {
      const { status, body } = await send("tools/call", ECHO, { ...MIRRORED, "mcp-name": name });
      expect(status).toBe(200);
      expect(body.result).toMatchObject({
        resultType: "complete",
        content: [{ type: "text", text: "hi" }],
      });
    }
  });

  it.each([
    [
      "a missing MCP-Protocol-Version",
      { "mcp-protocol-version": undefined },
      "the MCP-Protocol-Version header is missing",
    ],
    ["a missing Mcp-Method", { "mcp-method": undefined }, "the Mcp-Method header is missing"],
    [
      "an Mcp-Method for another method",
      { "mcp-method": "tools/list" },
      'the Mcp-Method header "tools/list" does not match the body\'s method "tools/call"',
    ],
    ["a missing Mcp-Name", { "mcp-name": undefined }, "the Mcp-Name header is missing"],
    [
      "an Mcp-Name for another tool",
      { "mcp-name": "add" },
      'the Mcp-Name header "add" does not match the body\'s value "echo"',
    ],
    [
      "an Mcp-Name that is not Base64 inside the sentinel",
      { "mcp-name": "=?base64?not base64!?=" },
      "the Mcp-Name header is not valid Base64 inside =?base64?…?=",
    ],
  ])("refuses %s with 400 and -32020", async (_case, change, why) => {
    const headers = Object.fromEntries(
      Object.entries({ ...MIRRORED, ...change }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    const { id, status, body } = await send("tools/call", ECHO, headers);
    expect(status).toBe(400);
    expect(body).toEqual(refusal(id, -32020, `Header mismatch: ${why}`));
  });

  it("takes an integer's Mcp-Param header in decimal, with or without a fraction of zero", async () => {
    const shard = { name: "shard", arguments: { shard: 42 } };
    const headers = { ...MIRRORED, "mcp-name": "shard" };
    for (const value of ["42", "42.0"]) {
      const { status, body } = await send("tools/call", shard, {
        ...headers,
        "mcp-param-shard": value,
      });
      expect([value, status, body.result?.content]).toEqual([
        value,
        200,
        [{ type: "text", text: "shard 42" }],
      ]);
    }
  });

  it.each(["0x2A", "0b101010", "0o52", "4.2e1", "+42", "42."])(
    "refuses the integer 42 mirrored as %j, which a gateway need not read as 42, with 400 and -32020",
    async (value) => {
      const { id, status, body } = await send(
        "tools/call",
        { name: "shard", arguments: { shard: 42 } },
        { ...MIRRORED, "mcp-name": "shard", "mcp-param-shard": value },
      );
      expect(status).toBe(400);
      expect(body).toEqual(
        refusal(
          id,
          -32020,
          `Header mismatch: the Mcp-Param-Shard header ${JSON.stringify(value)} does not match the body's value 42`,
        ),
      );
    },
  );

  it.each(["no/such-method", "constructor", "__proto__", "hasOwnProperty", "toString"])(
    "answers the unknown method %j with 404 and -32601, not a header check",
    async (method) => {
      const headers = { "mcp-protocol-version": VERSION, "mcp-method": method };
      const { id, status, body } = await send(method, {}, headers);
      expect(status).toBe(404);
      expect(body).toEqual(refusal(id, -32601, `Method not found: ${method}`));
    },
  );

  it("serves a request that also sends an Mcp-Session-Id, known or not, and echoes none", async () => {
    const live = await openSession(running.url);
    for (const sessionId of ["no-such-session", live]) {
      const { status, headers, body } = await send("tools/call", ECHO, {
        ...MIRRORED,
        "mcp-session-id": sessionId,
      });
      expect(status).toBe(200);
      expect(headers["mcp-session-id"]).toBeUndefined();
      expect(body.result).toMatchObject({
        resultType: "complete",
        content: [{ type: "text", text: "hi" }],
      });
    }
  });

  it.each(["GET", "DELETE"])(
    "answers %s claiming 2026-07-28 with 405, with an Mcp-Session-Id or without",
    async (method) => {
      const live = await openSession(running.url);
      const withAndWithout: Record<string, string>[] = [{}, { "mcp-session-id": live }];
      for (const session of withAndWithout) {
        const response = await rawRequest(running.url, {
          method,
          headers: { accept: "text/event-stream", "mcp-protocol-version": VERSION, ...session },
        });
        expect([response.status, response.headers.allow]).toEqual([405, "POST"]);
        expect(JSON.parse(response.body)).toEqual({
          jsonrpc: "2.0",
          error: {
            code: -32000,
            message: `Method Not Allowed: protocol 2026-07-28 takes POST only (${method} belonged to 2025 sessions); use subscriptions/listen for notifications`,
          },
        });
      }
    },
  );
});
