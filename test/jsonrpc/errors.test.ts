import { describe, expect, it } from "vitest";
import { ErrorCode, isJsonRpcError, JsonRpcError } from "../../src/jsonrpc/index.js";

describe("ErrorCode", () => {
  it("has the JSON-RPC 2.0 reserved codes", () => {
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
    });
  });
});

describe("JsonRpcError", () => {
  it("carries code, message and data", () => {
    const err = new JsonRpcError(ErrorCode.InvalidParams, "bad", { field: "x" });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe("JsonRpcError");
    expect(err.code).toBe(-32602);
    expect(err.message).toBe("bad");
    expect(err.data).toEqual({ field: "x" });
  });

  it("toObject includes data when present", () => {
    const err = new JsonRpcError(-32000, "custom", [1, 2]);
    expect(err.toObject()).toEqual({ code: -32000, message: "custom", data: [1, 2] });
  });

  it("toObject omits data when undefined", () => {
    const obj = new JsonRpcError(ErrorCode.InternalError, "boom").toObject();
    expect(obj).toEqual({ code: -32603, message: "boom" });
    expect(Object.keys(obj)).toEqual(["code", "message"]);
  });

  it("toObject keeps falsy but defined data", () => {
    expect(new JsonRpcError(1, "m", null).toObject()).toEqual({
      code: 1,
      message: "m",
      data: null,
    });
    expect(new JsonRpcError(1, "m", 0).toObject()).toEqual({ code: 1, message: "m", data: 0 });
  });
});

describe("isJsonRpcError", () => {
  it("recognises instances", () => {
    expect(isJsonRpcError(new JsonRpcError(1, "x"))).toBe(true);
  });

  it("recognises a second copy of the class by its brand", () => {
    const foreign = new Error("from another module copy");
    Object.defineProperty(foreign, Symbol.for("mcp-dir.jsonrpc-error"), { value: true });
    expect(foreign instanceof JsonRpcError).toBe(false);
    expect(isJsonRpcError(foreign)).toBe(true);
  });

  it("rejects look-alikes and non-objects", () => {
    expect(isJsonRpcError(new Error("plain"))).toBe(false);
    expect(isJsonRpcError({ code: -32600, message: "shape only" })).toBe(false);
    expect(isJsonRpcError(null)).toBe(false);
    expect(isJsonRpcError(undefined)).toBe(false);
    expect(isJsonRpcError("JsonRpcError")).toBe(false);
  });

  it("keeps the brand out of enumerable keys", () => {
    const err = new JsonRpcError(1, "x");
    expect(Object.getOwnPropertySymbols({ ...err })).toEqual([]);
  });
});
