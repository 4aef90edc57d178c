import { failure } from "./encode.js";
import { ErrorCode } from "./errors.js";
import { isJsonObject } from "./json-object.js";
import type { JsonRpcFailure, JsonRpcId, JsonRpcMessage, JsonRpcParams } from "./types.js";

export type Validated =
  | { ok: true; message: JsonRpcMessage }
  | { ok: false; error: JsonRpcFailure };

export type Parsed =
  | { kind: "single"; message: JsonRpcMessage }
  | { kind: "batch"; items: Validated[] }
  | { kind: "invalid"; error: JsonRpcFailure };

type Fields = Record<string, unknown>;

function isId(value: unknown): value is JsonRpcId {
  // NaN and Infinity cannot be written back as JSON, so they are not usable ids.
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** JSON.parse makes plain objects, so no JSON-RPC key is ever inherited. */
function has(fields: Fields, key: string): boolean {
  return fields[key] !== undefined;
}

/** Checks fields and returns the reason it is not a valid message, or the message rebuilt from its known fields. */
function check(fields: Fields): string | JsonRpcMessage {
  if (fields.jsonrpc !== "2.0") return '"jsonrpc" must be "2.0"';
  if (has(fields, "method")) return checkCall(fields);
  if (has(fields, "result") || has(fields, "error")) return checkResponse(fields);
  return 'missing "method" (or "result"/"error" for a response)';
}

function checkCall(fields: Fields): string | JsonRpcMessage {
  const { method, id, params } = fields;
  if (typeof method !== "string" || method === "") return '"method" must be a non-empty string';
  const hasId = id !== undefined;
  if (hasId && !isId(id)) return '"id" must be a string or a number';
  if (params === undefined) {
    return hasId ? { jsonrpc: "2.0", id: id as JsonRpcId, method } : { jsonrpc: "2.0", method };
  }
  if (typeof params !== "object" || params === null) {
    return '"params" must be an object or an array';
  }
  const checked = params as JsonRpcParams;
  return hasId
    ? { jsonrpc: "2.0", id: id as JsonRpcId, method, params: checked }
    : { jsonrpc: "2.0", method, params: checked };
}

function checkResponse(fields: Fields): string | JsonRpcMessage {
  const { id, result, error } = fields;
  if (has(fields, "result") && has(fields, "error")) {
    return 'a response must not have both "result" and "error"';
  }
  if (!has(fields, "id")) return 'a response must have an "id"';
  if (has(fields, "result")) {
    if (!isId(id)) return '"id" must be a string or a number';
    return { jsonrpc: "2.0", id, result };
  }
  const failureId = id === null || isId(id) ? id : undefined;
  if (failureId === undefined) return '"id" must be a string, a number or null';
  if (!isJsonObject(error)) return '"error" must be an object';
  if (typeof error.code !== "number" || !Number.isInteger(error.code)) {
    return '"error.code" must be an integer';
  }
  if (typeof error.message !== "string") return '"error.message" must be a string';
  return failure(failureId, error.code, error.message, error.data);
}

/** Checks a parsed value's fields; its nesting is parseMessage's to check, from the text. */
export function validateMessage(value: unknown): Validated {
  if (!isJsonObject(value)) {
    return {
      ok: false,
      error: failure(
        null,
        ErrorCode.InvalidRequest,
        "Invalid Request: message must be a JSON object",
      ),
    };
  }
  const outcome = check(value);
  if (typeof outcome === "string") {
    const id = isId(value.id) ? value.id : null;
    return {
      ok: false,
      error: failure(id, ErrorCode.InvalidRequest, `Invalid Request: ${outcome}`),
    };
  }
  return { ok: true, message: outcome };
}

/**
 * How deep arrays and objects may nest in one message, the message itself
 * being the first level. Deeper data would overflow the stack of whatever
 * walks it later (a digest, a schema check), so it is refused here, where
 * every message from every transport enters.
 */
export const MAX_NESTING = 100;

const OPENING_BRACKETS = ["{", "["] as const;

/**
 * Whether the text holds more opening brackets than MAX_NESTING, counting
 * those in strings too. Only such a text can nest too deep, so an ordinary
 * message is never walked twice: natively searched, not parsed again.
 */
function mayNestTooDeep(text: string): boolean {
  let brackets = 0;
  for (const bracket of OPENING_BRACKETS) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++brackets > MAX_NESTING) return true;
    }
  }
  return false;
}

/** True when `value` has arrays or objects more than `levels` deep, counting itself. */
function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    if (nestsDeeper(child, levels - 1)) return true;
  }
  return false;
}

function tooDeep(value: unknown): JsonRpcFailure {
  const id = isJsonObject(value) && isId(value.id) ? value.id : null;
  return failure(
    id,
    ErrorCode.InvalidRequest,
    `Invalid Request: the message nests arrays and objects more than ${MAX_NESTING} levels deep, the most this server accepts; send flatter data`,
  );
}

/** validateMessage, first refusing a message that nests too deep when the text says it may. */
function validate(value: unknown, mayBeDeep: boolean): Validated {
  if (mayBeDeep && nestsDeeper(value, MAX_NESTING)) return { ok: false, error: tooDeep(value) };
  return validateMessage(value);
}

/** U+FEFF, which Windows tools (PowerShell's Out-File, Notepad) write before UTF-8 text. */
const BYTE_ORDER_MARK = 0xfeff;

/**
 * One message or batch from its JSON text: an HTTP body or a stdio line, each
 * transport's text enters here. A byte order mark before it is ignored, as
 * RFC 8259 (section 8.1) lets a parser do; anywhere else it is a parse error.
 */
export function parseMessage(received: string): Parsed {
  const text = received.charCodeAt(0) === BYTE_ORDER_MARK ? received.slice(1) : received;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return {
      kind: "invalid",
      error: failure(null, ErrorCode.ParseError, `Parse error: ${reason}`),
    };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return {
        kind: "invalid",
        error: failure(null, ErrorCode.InvalidRequest, "Invalid Request: empty batch"),
      };
    }
    const mayBeDeep = mayNestTooDeep(text);
    return { kind: "batch", items: value.map((item) => validate(item, mayBeDeep)) };
  }
  const validated = validate(value, mayNestTooDeep(text));
  return validated.ok
    ? { kind: "single", message: validated.message }
    : { kind: "invalid", error: validated.error };
}
