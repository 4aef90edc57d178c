import type { JsonRpcErrorObject, JsonRpcId } from "./types.js";

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

// A brand rather than instanceof: a reloaded module may hold a second copy of the class.
const BRAND = Symbol.for("mcp-dir.jsonrpc-error");

export class JsonRpcError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "JsonRpcError";
    this.code = code;
    this.data = data;
    Object.defineProperty(this, BRAND, { value: true });
  }

  toObject(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export function isJsonRpcError(value: unknown): value is JsonRpcError {
  if (typeof value !== "object" || value === null) return false;
  try {
    return (value as Record<symbol, unknown>)[BRAND] === true;
  } catch {
    // A thrown Proxy whose traps throw: not one of ours.
    return false;
  }
}

/** The answer to a request whose id another request still in flight holds. */
export function idInUseMessage(id: JsonRpcId): string {
  return `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight; give each request its own id`;
}
