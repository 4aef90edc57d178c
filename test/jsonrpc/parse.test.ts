import { describe, expect, it } from "vitest";
import { type JsonRpcFailure, parseMessage, validateMessage } from "../../src/jsonrpc/index.js";

const INVALID_REQUEST = -32600;

function invalid(
  id: string | number | null,
  reason: string,
): { kind: "invalid"; error: JsonRpcFailure } {
  return {
    kind: "invalid",
    error: {
      jsonrpc: "2.0",
      id,
      error: { code: INVALID_REQUEST, message: `Invalid Request: ${reason}` },
    },
  };
}

function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("expected JSON.parse to fail");
}

describe("parseMessage: malformed JSON", () => {
  it.each(['{"jsonrpc":"2.0",', "", "not json", "{'a':1}"])(
    "rejects %j with -32700 and a null id",
    (text) => {
      expect(parseMessage(text)).toEqual({
        kind: "invalid",
        error: {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700, message: `Parse error: ${jsonParseMessage(text)}` },
        },
      });
    },
  );
});

describe("parseMessage: a byte order mark", () => {
  it("is ignored at the start of the text (RFC 8259, 8.1), of a message or a batch", () => {
    expect(parseMessage('\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: 1, method: "ping" },
    });
    expect(parseMessage('\uFEFF[{"jsonrpc":"2.0","method":"n"}]')).toEqual({
      kind: "batch",
      items: [{ ok: true, message: { jsonrpc: "2.0", method: "n" } }],
    });
  });

  it("is a parse error anywhere else, or twice", () => {
    for (const text of [
      ' \uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '\uFEFF\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}',
      "\uFEFF",
    ]) {
      expect(parseMessage(text)).toMatchObject({
        kind: "invalid",
        error: { error: { code: -32700 } },
      });
    }
  });
});

describe("parseMessage: invalid single messages", () => {
  const cases: Array<[string, string, string | number | null, string]> = [
    ["a number", "42", null, "message must be a JSON object"],
    ["a string", '"hello"', null, "message must be a JSON object"],
    ["null", "null", null, "message must be a JSON object"],
    ["a boolean", "true", null, "message must be a JSON object"],
    ["missing jsonrpc", '{"id":1,"method":"m"}', 1, '"jsonrpc" must be "2.0"'],
    ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":"x","method":"m"}', "x", '"jsonrpc" must be "2.0"'],
    ["numeric jsonrpc", '{"jsonrpc":2.0,"id":1,"method":"m"}', 1, '"jsonrpc" must be "2.0"'],
    [
      "null request id",
      '{"jsonrpc":"2.0","id":null,"method":"m"}',
      null,
      '"id" must be a string or a number',
    ],
    [
      "boolean id",
      '{"jsonrpc":"2.0","id":true,"method":"m"}',
      null,
      '"id" must be a string or a number',
    ],
    [
      "object id",
      '{"jsonrpc":"2.0","id":{"a":1},"method":"m"}',
      null,
      '"id" must be a string or a number',
    ],
    [
      "array id",
      '{"jsonrpc":"2.0","id":[1],"method":"m"}',
      null,
      '"id" must be a string or a number',
    ],
    [
      "missing method",
      '{"jsonrpc":"2.0","id":5}',
      5,
      'missing "method" (or "result"/"error" for a response)',
    ],
    [
      "empty method",
      '{"jsonrpc":"2.0","id":5,"method":""}',
      5,
      '"method" must be a non-empty string',
    ],
    [
      "numeric method",
      '{"jsonrpc":"2.0","id":5,"method":12}',
      5,
      '"method" must be a non-empty string',
    ],
    [
      "null method",
      '{"jsonrpc":"2.0","id":"q","method":null}',
      "q",
      '"method" must be a non-empty string',
    ],
    [
      "null params",
      '{"jsonrpc":"2.0","id":1,"method":"m","params":null}',
      1,
      '"params" must be an object or an array',
    ],
    [
      "string params",
      '{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}',
      1,
      '"params" must be an object or an array',
    ],
    [
      "number params on a notification",
      '{"jsonrpc":"2.0","method":"m","params":3}',
      null,
      '"params" must be an object or an array',
    ],
    [
      "response with both result and error",
      '{"jsonrpc":"2.0","id":9,"result":1,"error":{"code":1,"message":"x"}}',
      9,
      'a response must not have both "result" and "error"',
    ],
    [
      "success response without id",
      '{"jsonrpc":"2.0","result":1}',
      null,
      'a response must have an "id"',
    ],
    [
      "error response without id",
      '{"jsonrpc":"2.0","error":{"code":1,"message":"x"}}',
      null,
      'a response must have an "id"',
    ],
    [
      "success response with null id",
      '{"jsonrpc":"2.0","id":null,"result":1}',
      null,
      '"id" must be a string or a number',
    ],
    [
      "error response with boolean id",
      '{"jsonrpc":"2.0","id":false,"error":{"code":1,"message":"x"}}',
      null,
      '"id" must be a string, a number or null',
    ],
    [
      "error that is not an object",
      '{"jsonrpc":"2.0","id":2,"error":"bad"}',
      2,
      '"error" must be an object',
    ],
    ["null error", '{"jsonrpc":"2.0","id":2,"error":null}', 2, '"error" must be an object'],
    [
      "error without code",
      '{"jsonrpc":"2.0","id":2,"error":{"message":"x"}}',
      2,
      '"error.code" must be an integer',
    ],
    [
      "error with a fractional code",
      '{"jsonrpc":"2.0","id":2,"error":{"code":1.5,"message":"x"}}',
      2,
      '"error.code" must be an integer',
    ],
    [
      "error with a string code",
      '{"jsonrpc":"2.0","id":2,"error":{"code":"-32600","message":"x"}}',
      2,
      '"error.code" must be an integer',
    ],
    [
      "error without message",
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32000}}',
      2,
      '"error.message" must be a string',
    ],
  ];

  it.each(cases)("rejects %s", (_name, text, id, reason) => {
    expect(parseMessage(text)).toEqual(invalid(id, reason));
  });

  it("rejects an empty batch with a null id", () => {
    expect(parseMessage("[]")).toEqual(invalid(null, "empty batch"));
    expect(parseMessage(" [ ] ")).toEqual(invalid(null, "empty batch"));
  });
});

describe("parseMessage: valid messages", () => {
  it("accepts a request with object params", () => {
    expect(
      parseMessage('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"c"}}'),
    ).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: "c" } },
    });
  });

  it("accepts a request with array params, a string id and no params", () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":"a","method":"sum","params":[1,2]}')).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: "a", method: "sum", params: [1, 2] },
    });
    const bare = parseMessage('{"jsonrpc":"2.0","id":"","method":"ping"}');
    expect(bare).toEqual({ kind: "single", message: { jsonrpc: "2.0", id: "", method: "ping" } });
    expect(bare.kind === "single" && "params" in bare.message).toBe(false);
  });

  it("accepts fractional, negative and zero numeric ids", () => {
    for (const id of [1.5, -3, 0]) {
      expect(parseMessage(JSON.stringify({ jsonrpc: "2.0", id, method: "m" }))).toEqual({
        kind: "single",
        message: { jsonrpc: "2.0", id, method: "m" },
      });
    }
  });

  it("accepts empty object and empty array params", () => {
    expect(parseMessage('{"jsonrpc":"2.0","method":"n","params":{}}')).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", method: "n", params: {} },
    });
    expect(parseMessage('{"jsonrpc":"2.0","method":"n","params":[]}')).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", method: "n", params: [] },
    });
  });

  it("accepts a notification without an id key", () => {
    const parsed = parseMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(parsed).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", method: "notifications/initialized" },
    });
    expect(parsed.kind === "single" && "id" in parsed.message).toBe(false);
  });

  it("accepts success responses, including a null result", () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":4,"result":{"x":[1]}}')).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: 4, result: { x: [1] } },
    });
    expect(parseMessage('{"jsonrpc":"2.0","id":"r","result":null}')).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: "r", result: null },
    });
  });

  it("accepts error responses with and without data, and with a null id", () => {
    expect(
      parseMessage('{"jsonrpc":"2.0","id":4,"error":{"code":-32000,"message":"x","data":[1]}}'),
    ).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: 4, error: { code: -32000, message: "x", data: [1] } },
    });
    const noData = parseMessage(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    );
    expect(noData).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
    });
    expect(
      noData.kind === "single" && "error" in noData.message && "data" in noData.message.error,
    ).toBe(false);
  });

  it("drops unknown top-level members", () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":1,"method":"m","extra":true}')).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: 1, method: "m" },
    });
  });

  it("does not validate method names or params beyond JSON-RPC", () => {
    expect(
      parseMessage('{"jsonrpc":"2.0","id":1,"method":"no/such/mcp/method","params":{"_meta":5}}'),
    ).toEqual({
      kind: "single",
      message: { jsonrpc: "2.0", id: 1, method: "no/such/mcp/method", params: { _meta: 5 } },
    });
  });
});

describe("parseMessage: batches", () => {
  it("validates each element on its own", () => {
    const text = JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "a" },
      { jsonrpc: "2.0", method: "b", params: [1] },
      { jsonrpc: "2.0", id: 2, method: "" },
      1,
      { jsonrpc: "1.0", id: "z", method: "c" },
      { jsonrpc: "2.0", id: 3, result: "ok" },
    ]);
    expect(parseMessage(text)).toEqual({
      kind: "batch",
      items: [
        { ok: true, message: { jsonrpc: "2.0", id: 1, method: "a" } },
        { ok: true, message: { jsonrpc: "2.0", method: "b", params: [1] } },
        { ok: false, error: invalid(2, '"method" must be a non-empty string').error },
        { ok: false, error: invalid(null, "message must be a JSON object").error },
        { ok: false, error: invalid("z", '"jsonrpc" must be "2.0"').error },
        { ok: true, message: { jsonrpc: "2.0", id: 3, result: "ok" } },
      ],
    });
  });

  it("treats a nested array element as an invalid item, not a nested batch", () => {
    expect(parseMessage("[[]]")).toEqual({
      kind: "batch",
      items: [{ ok: false, error: invalid(null, "message must be a JSON object").error }],
    });
  });

  it("returns a batch of one for a one-element array", () => {
    const parsed = parseMessage('[{"jsonrpc":"2.0","method":"n"}]');
    expect(parsed).toEqual({
      kind: "batch",
      items: [{ ok: true, message: { jsonrpc: "2.0", method: "n" } }],
    });
  });
});

describe("validateMessage", () => {
  it("validates values that did not come from JSON text", () => {
    expect(validateMessage({ jsonrpc: "2.0", id: 1, method: "m" })).toEqual({
      ok: true,
      message: { jsonrpc: "2.0", id: 1, method: "m" },
    });
    expect(validateMessage(undefined)).toEqual({
      ok: false,
      error: invalid(null, "message must be a JSON object").error,
    });
  });

  it("treats keys holding undefined as absent", () => {
    expect(
      validateMessage({ jsonrpc: "2.0", id: undefined, method: "m", params: undefined }),
    ).toEqual({
      ok: true,
      message: { jsonrpc: "2.0", method: "m" },
    });
  });

  it("rejects ids that JSON cannot carry", () => {
    expect(validateMessage({ jsonrpc: "2.0", id: Number.NaN, method: "m" })).toEqual({
      ok: false,
      error: invalid(null, '"id" must be a string or a number').error,
    });
    expect(validateMessage({ jsonrpc: "2.0", id: Number.POSITIVE_INFINITY, method: "m" })).toEqual({
      ok: false,
      error: invalid(null, '"id" must be a string or a number').error,
    });
  });
});
