import type { JsonRpcFailure, JsonRpcId, JsonRpcMessage, JsonRpcSuccess } from "./types.js";

const BRAND = Symbol.for("mcp-dir.raw-json");

/** An already-serialised JSON value, spliced into an encoded success response without re-serialising. */
export class RawJson {
  readonly json: string;

  constructor(json: string, flat = false) {
    if (json.trim() === "") throw new TypeError("RawJson needs a non-empty JSON text");
    // Newlines can only be insignificant whitespace in valid JSON, and an embedded one
    // would split the message in newline-delimited framing, so flatten them to spaces.
    this.json = !flat && /[\r\n]/.test(json) ? json.replace(/[\r\n]/g, " ") : json;
  }

  /**
   * Serialises `value` now; throws what JSON.stringify throws (a BigInt, a
   * cycle, a toJSON that throws). Its output is already flat: no newline check.
   */
  static of(value: unknown): RawJson {
    if (isRawJson(value)) return value;
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`${String(value)} is not a JSON value`);
    return new RawJson(json, true);
  }

  // Only a success's top-level result is spliced; anywhere else JSON.stringify calls this,
  // which keeps the output correct (just slower) instead of emitting {"json":"..."}.
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

// On the prototype, set once: another copy of this module (a bundle, say) still recognises it.
Object.defineProperty(RawJson.prototype, BRAND, { value: true });

export function isRawJson(value: unknown): value is RawJson {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[BRAND] === true
  );
}

export function success(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: "2.0", id, result };
}

export function failure(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcFailure {
  return data === undefined
    ? { jsonrpc: "2.0", id, error: { code, message } }
    : { jsonrpc: "2.0", id, error: { code, message, data } };
}

/** Serialises one message as JSON, without a trailing newline. */
export function encodeMessage(message: JsonRpcMessage): string {
  if ("result" in message && isRawJson(message.result)) {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${message.result.json}}`;
  }
  return JSON.stringify(message);
}

export function encodeBatch(messages: JsonRpcMessage[]): string {
  return `[${messages.map(encodeMessage).join(",")}]`;
}
