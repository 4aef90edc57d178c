import { describe, expect, it } from "vitest";
import {
  isNotification,
  isRequest,
  isResponse,
  type JsonRpcMessage,
} from "../../src/jsonrpc/index.js";

const request: JsonRpcMessage = { jsonrpc: "2.0", id: 0, method: "m" };
const notification: JsonRpcMessage = { jsonrpc: "2.0", method: "n" };
const successResponse: JsonRpcMessage = { jsonrpc: "2.0", id: 1, result: null };
const failureResponse: JsonRpcMessage = {
  jsonrpc: "2.0",
  id: null,
  error: { code: 1, message: "x" },
};

describe("message type guards", () => {
  it("classifies each kind of message exactly once", () => {
    const classify = (m: JsonRpcMessage) => [isRequest(m), isNotification(m), isResponse(m)];
    expect(classify(request)).toEqual([true, false, false]);
    expect(classify(notification)).toEqual([false, true, false]);
    expect(classify(successResponse)).toEqual([false, false, true]);
    expect(classify(failureResponse)).toEqual([false, false, true]);
  });

  it("treats an id key holding undefined as a notification", () => {
    const m = { jsonrpc: "2.0", method: "n", id: undefined } as unknown as JsonRpcMessage;
    expect(isNotification(m)).toBe(true);
    expect(isRequest(m)).toBe(false);
  });
});
