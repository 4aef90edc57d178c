import { ErrorCode, JsonRpcError } from "../jsonrpc/index.js";
import { toBase64 } from "../protocol/content.js";
import type { ReadResourceResult, ResourceContents } from "../protocol/types.js";
import { jsonText } from "./json-text.js";

/** Text, bytes, one contents item, several, or a full result; any other object becomes JSON. */
export type ResourceReturn =
  | string
  | Uint8Array
  | Partial<ResourceContents>
  | Partial<ResourceContents>[]
  | ReadResourceResult
  | object;

function isContentsItem(value: unknown): value is Partial<ResourceContents> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const item = value as Record<string, unknown>;
  return typeof item.text === "string" || typeof item.blob === "string";
}

function toItem(value: unknown, uri: string, mimeType: string | undefined): ResourceContents {
  if (typeof value === "string") return { uri, mimeType: mimeType ?? "text/plain", text: value };
  if (value instanceof Uint8Array) {
    return { uri, mimeType: mimeType ?? "application/octet-stream", blob: toBase64(value) };
  }
  if (isContentsItem(value)) {
    const item = { uri, ...value } as ResourceContents;
    const withMime = item.mimeType === undefined && mimeType !== undefined;
    return withMime ? { ...item, mimeType } : item;
  }
  const converted = jsonText(value);
  if ("json" in converted) {
    return { uri, mimeType: mimeType ?? "application/json", text: converted.json };
  }
  throw new JsonRpcError(
    ErrorCode.InternalError,
    `Resource "${uri}" read returned ${converted.unsendable}; ${converted.instead ?? "return a string, bytes, { text } or { blob } items, or { contents }"}`,
  );
}

export function toReadResult(
  value: ResourceReturn,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult {
  if (typeof value === "object" && value !== null && "contents" in value) {
    const contents = (value as { contents: unknown }).contents;
    if (Array.isArray(contents)) {
      return { ...value, contents: contents.map((item) => toItem(item, uri, mimeType)) };
    }
  }
  if (Array.isArray(value) && value.every(isContentsItem)) {
    return { contents: value.map((item) => toItem(item, uri, mimeType)) };
  }
  return { contents: [toItem(value, uri, mimeType)] };
}
