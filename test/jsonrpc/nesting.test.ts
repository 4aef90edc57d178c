import { describe, expect, it } from "vitest";
import { failure, MAX_NESTING, parseMessage } from "../../src/jsonrpc/index.js";

const INVALID_REQUEST = -32600;

function invalid(id: string | number | null, reason: string) {
  return { kind: "invalid", error: failure(id, INVALID_REQUEST, `Invalid Request: ${reason}`) };
}

describe("parseMessage: nesting", () => {
  const TOO_DEEP = `the message nests arrays and objects more than ${MAX_NESTING} levels deep, the most this server accepts; send flatter data`;
  /** A request whose params hold `depth` nested arrays: depth + 2 levels in all. */
  const request = (id: number | string, depth: number) =>
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"m","params":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}`;

  it("takes a message exactly MAX_NESTING levels deep", () => {
    const parsed = parseMessage(request(1, MAX_NESTING - 2));
    expect(parsed.kind).toBe("single");
  });

  it("refuses one level more, answering the request's id", () => {
    expect(parseMessage(request("deep", MAX_NESTING - 1))).toEqual(invalid("deep", TOO_DEEP));
    expect(parseMessage(request(7, 20_000))).toEqual(invalid(7, TOO_DEEP));
  });

  it("answers null when the deep message has no id to read", () => {
    expect(parseMessage("[".repeat(200) + "]".repeat(200))).toEqual({
      kind: "batch",
      items: [{ ok: false, error: invalid(null, TOO_DEEP).error }],
    });
  });

  it("does not count brackets inside strings", () => {
    const text = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "m",
      params: { s: "[{".repeat(500) },
    });
    expect(parseMessage(text)).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: 1, method: "m", params: { s: "[{".repeat(500) } },
    });
  });

  it("refuses only the batch items that nest too deep", () => {
    const text = `[${request(1, MAX_NESTING)},{"jsonrpc":"2.0","id":2,"method":"m"}]`;
    expect(parseMessage(text)).toEqual({
      kind: "batch",
      items: [
        { ok: false, error: invalid(1, TOO_DEEP).error },
        { ok: true, message: { jsonrpc: "2.0", id: 2, method: "m" } },
      ],
    });
  });
});
