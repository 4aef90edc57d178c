/**
 * Requests no well-behaved client sends, over serveHttp: two Host headers
 * (through a raw socket, since clients will not send them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Running, startFixture } from "./helpers.js";
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
