/**
 * Requests no well-behaved client sends, over serveHttp: two Host headers
 * (through a raw socket, since clients will not send them), a charset other
 * than UTF-8, and a body whose bytes are not UTF-8, in both eras.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openSession,
  PROTOCOL_VERSION,
  postHeaders,
  type Running,
  rawRequest,
  startFixture,
} from "./helpers.js";
import { rawExchange, requestHead } from "./raw-socket.js";

let running: Running;
beforeAll(async () => {
  running = await startFixture();
});
afterAll(() => running.serving.close());

function jsonRpcError(code: number, message: string) {
  return { jsonrpc: "2.0", error: { code, message } };
}

/** The status line and the JSON body of a raw HTTP/1.1 answer. */
function parseAnswer(answer: string): { status: string; body: unknown } {
  const [head = "", body = ""] = answer.split("\r\n\r\n", 2);
  return { status: head.split("\r\n", 1)[0] ?? "", body: body === "" ? "" : JSON.parse(body) };
}

const TWO_HOSTS = jsonRpcError(
  -32000,
  "Bad Request: the request has 2 Host headers; send exactly one (RFC 9112, section 3.2)",
);

describe("two Host headers", () => {
  it("are refused with 400 on every path, whichever comes first", async () => {
    const { port } = new URL(running.url);
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    for (const [method, path] of [
      ["POST", "/mcp"],
      ["GET", "/health"],
    ] as const) {
      for (const hosts of [
        [`localhost:${port}`, "evil.example"],
        ["evil.example", `localhost:${port}`],
        [`localhost:${port}`, `localhost:${port}`],
      ]) {
        const head = requestHead(method, path, [
          ["Host", hosts[0] ?? ""],
          ["content-type", "application/json"],
          ["accept", "application/json, text/event-stream"],
          ["HOST", hosts[1] ?? ""],
          ["content-length", method === "POST" ? Buffer.byteLength(ping) : 0],
          ["connection", "close"],
        ]);
        const answer = parseAnswer(
          await rawExchange(running.url, head + (method === "POST" ? ping : "")),
        );
        expect(answer).toEqual({ status: "HTTP/1.1 400 Bad Request", body: TWO_HOSTS });
      }
    }
  });

  it("one Host is served", async () => {
    const { port } = new URL(running.url);
    const head = requestHead("GET", "/health", [
      ["Host", `localhost:${port}`],
      ["connection", "close"],
    ]);
    const answer = parseAnswer(await rawExchange(running.url, head));
    expect(answer).toEqual({ status: "HTTP/1.1 200 OK", body: { status: "ok" } });
  });
});

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** An echo call in each era: the headers and the JSON text around the message. */
async function echoCalls(): Promise<
  Array<{ era: string; headers: Record<string, string>; body: (message: string) => string }>
> {
  const sessionId = await openSession(running.url);
  return [
    {
      era: PROTOCOL_VERSION,
      headers: postHeaders(sessionId),
      body: (message) =>
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"${message}"}}}`,
    },
    {
      era: "2026-07-28",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "echo",
      },
      body: (message) =>
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"${message}"},"_meta":${JSON.stringify(ENVELOPE)}}}`,
    },
  ];
}

describe("the charset of a JSON body", () => {
  it("is refused with 415 unless it is UTF-8", async () => {
    for (const call of await echoCalls()) {
      for (const charset of ["utf-16", '"iso-8859-1"', "latin1"]) {
        const response = await rawRequest(running.url, {
          headers: { ...call.headers, "content-type": `application/json; charset=${charset}` },
          body: call.body("hi"),
        });
        expect([call.era, response.status, JSON.parse(response.body)]).toEqual([
          call.era,
          415,
          jsonRpcError(
            -32000,
            `Unsupported Media Type: send the JSON-RPC message in UTF-8, as Content-Type: application/json or application/json; charset=utf-8 (got charset ${JSON.stringify(charset.replaceAll('"', ""))})`,
          ),
        ]);
      }
    }
  });

  it("is served when it names UTF-8, in any case or quoted", async () => {
    for (const call of await echoCalls()) {
      for (const contentType of [
        "application/json; charset=utf-8",
        "application/json;charset=UTF-8",
        'application/json; charset="utf-8"',
        "application/json; charset=utf8",
      ]) {
        const response = await rawRequest(running.url, {
          headers: { ...call.headers, "content-type": contentType },
          body: call.body("hi"),
        });
        expect([call.era, contentType, response.status]).toEqual([call.era, contentType, 200]);
      }
    }
  });
});

describe("a body that is not UTF-8", () => {
  const NOT_UTF8 = jsonRpcError(
    -32700,
    "Parse error: the body is not valid UTF-8; send the JSON-RPC message encoded in UTF-8",
  );

  it("gets a parse error (-32700) rather than being read with replacement characters", async () => {
    for (const call of await echoCalls()) {
      const [before, after] = call.body("@").split("@") as [string, string];
      // 0xff never occurs in UTF-8; 0xc3 alone starts a sequence that never ends.
      for (const bad of [[0xff], [0xc3], [0xe9, 0x74, 0xe9]]) {
        const body = Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]);
        const response = await rawRequest(running.url, { headers: call.headers, body });
        expect([call.era, response.status, JSON.parse(response.body)]).toEqual([
          call.era,
          400,
          NOT_UTF8,
        ]);
      }
    }
  });

  it("is told apart from a body that holds the replacement character itself", async () => {
    for (const call of await echoCalls()) {
      const response = await rawRequest(running.url, {
        headers: call.headers,
        body: Buffer.from(call.body("\uFFFD é")),
      });
      expect(response.status).toBe(200);
      expect(response.body).toContain('"text":"\uFFFD é"');
    }
  });
});

describe("a body that starts with a byte order mark", () => {
  it("is served as if it had none, as Windows tools write one (RFC 8259, 8.1)", async () => {
    for (const call of await echoCalls()) {
      const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(call.body("hi"))]);
      const response = await rawRequest(running.url, { headers: call.headers, body });
      expect([call.era, response.status]).toEqual([call.era, 200]);
      expect(response.body).toContain('"text":"hi"');
    }
  });
});
