import { describe, expect, it } from "vitest";
import {
  encodeBatch,
  encodeMessage,
  failure,
  isRawJson,
  type JsonRpcMessage,
  parseMessage,
  RawJson,
  success,
} from "../../src/jsonrpc/index.js";

describe("success / failure", () => {
  it("builds a success response", () => {
    expect(success(1, { ok: true })).toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
  });

  it("builds a failure without a data key when data is undefined", () => {
    const f = failure("a", -32601, "Method not found");
    expect(f).toEqual({
      jsonrpc: "2.0",
      id: "a",
      error: { code: -32601, message: "Method not found" },
    });
    expect(Object.keys(f.error)).toEqual(["code", "message"]);
  });

  it("builds a failure with data and a null id", () => {
    expect(failure(null, -32700, "Parse error", { at: 3 })).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error", data: { at: 3 } },
    });
  });
});

describe("encodeMessage", () => {
  it("encodes a request as compact JSON without a trailing newline", () => {
    const text = encodeMessage({ jsonrpc: "2.0", id: 7, method: "ping", params: { a: 1 } });
    expect(text).toBe('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":1}}');
  });

  it("never emits null or keys for absent optional fields", () => {
    expect(encodeMessage({ jsonrpc: "2.0", method: "note", params: undefined })).toBe(
      '{"jsonrpc":"2.0","method":"note"}',
    );
    expect(encodeMessage(failure(3, -32603, "Internal error"))).toBe(
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error"}}',
    );
  });

  it("keeps an explicit null result and a null failure id", () => {
    expect(encodeMessage(success(1, null))).toBe('{"jsonrpc":"2.0","id":1,"result":null}');
    expect(encodeMessage(failure(null, -32700, "Parse error: x"))).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: x"}}',
    );
  });

  it("splices a RawJson result as-is", () => {
    const raw = new RawJson('{"tools":[{"name":"a"}] , "x": 1.50}');
    expect(encodeMessage(success("req-1", raw))).toBe(
      '{"jsonrpc":"2.0","id":"req-1","result":{"tools":[{"name":"a"}] , "x": 1.50}}',
    );
  });

  it("escapes a string id when splicing", () => {
    const text = encodeMessage(success('a"b', new RawJson("[]")));
    expect(text).toBe('{"jsonrpc":"2.0","id":"a\\"b","result":[]}');
    expect(JSON.parse(text)).toEqual({ jsonrpc: "2.0", id: 'a"b', result: [] });
  });

  it("produces output that parses back to the same message", () => {
    const messages: JsonRpcMessage[] = [
      { jsonrpc: "2.0", id: 1, method: "m", params: [1, "two"] },
      { jsonrpc: "2.0", method: "n" },
      success("x", { nested: { deep: [true] } }),
      failure(2, -32602, "Invalid params", { path: ["a"] }),
    ];
    for (const message of messages) {
      expect(parseMessage(encodeMessage(message))).toEqual({ kind: "single", message });
    }
  });
});

describe("RawJson", () => {
  it("is recognised by its brand", () => {
    expect(isRawJson(new RawJson("1"))).toBe(true);
    const foreign = { json: "1" };
    Object.defineProperty(foreign, Symbol.for("mcp-dir.raw-json"), { value: true });
    expect(isRawJson(foreign)).toBe(true);
    expect(isRawJson({ json: "1" })).toBe(false);
    expect(isRawJson(null)).toBe(false);
    expect(isRawJson("1")).toBe(false);
  });

  it("flattens newlines so the message stays on one line", () => {
    const raw = new RawJson('{\n  "a": 1\r\n}');
    expect(raw.json).toBe('{   "a": 1  }');
    const text = encodeMessage(success(1, raw));
    expect(text).not.toMatch(/[\r\n]/);
    expect(JSON.parse(text)).toEqual({ jsonrpc: "2.0", id: 1, result: { a: 1 } });
  });

  it("rejects empty text", () => {
    expect(() => new RawJson("")).toThrow(TypeError);
    expect(() => new RawJson("  ")).toThrow("RawJson needs a non-empty JSON text");
  });

  it("still encodes correctly when nested somewhere other than a top-level result", () => {
    const text = encodeMessage(success(1, { inner: new RawJson('{"b":[2]}') }));
    expect(text).toBe('{"jsonrpc":"2.0","id":1,"result":{"inner":{"b":[2]}}}');
  });
});

describe("encodeBatch", () => {
  it("encodes messages as a JSON array, splicing RawJson results", () => {
    const text = encodeBatch([
      success(1, new RawJson('{"r":1}')),
      failure(2, -32601, "Method not found"),
      { jsonrpc: "2.0", method: "note" },
    ]);
    expect(text).toBe(
      '[{"jsonrpc":"2.0","id":1,"result":{"r":1}},' +
        '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}},' +
        '{"jsonrpc":"2.0","method":"note"}]',
    );
    expect(JSON.parse(text)).toHaveLength(3);
  });

  it("encodes a single-element batch as an array", () => {
    expect(encodeBatch([success(1, 2)])).toBe('[{"jsonrpc":"2.0","id":1,"result":2}]');
  });
});
