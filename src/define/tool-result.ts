import { audio, image, isContentBlock, text } from "../protocol/content.js";
import type { CallToolResult, ContentBlock, JsonObject } from "../protocol/types.js";
import { sniffMimeType } from "./bytes.js";
import { contentListProblem } from "./content-shape.js";
import { jsonText } from "./json-text.js";
import type { CompiledSchema } from "./schema.js";

/** Bytes with the mime type that says what they are: `{ data, mimeType: "image/png" }`. */
export interface BinaryResult {
  data: Uint8Array;
  mimeType: string;
}

export function errorResult(message: string): CallToolResult {
  return { content: [text(message)], isError: true };
}

function isBinaryResult(value: unknown): value is BinaryResult {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as BinaryResult).data instanceof Uint8Array &&
    typeof (value as BinaryResult).mimeType === "string"
  );
}

export function isCallToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== "object" || value === null) return false;
  const content = (value as { content?: unknown }).content;
  return Array.isArray(content) && content.every(isContentBlock);
}

function isNonArrayObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function bytesToContent(data: Uint8Array, mimeType: string | undefined): ContentBlock | string {
  if (mimeType?.startsWith("image/")) return image(data, mimeType);
  if (mimeType?.startsWith("audio/")) return audio(data, mimeType);
  return mimeType
    ? `returned bytes of type "${mimeType}"; only image/* and audio/* bytes become content, return an embedded resource for other types`
    : "returned bytes of an unknown format; return { data, mimeType } to say what they are";
}

/** Everything except structured output: the shapes docs/design.md lists under "Results". */
function toContent(value: unknown): ContentBlock[] | string {
  if (value === undefined) return [];
  if (typeof value === "string") return [text(value)];
  if (value instanceof Uint8Array) {
    const block = bytesToContent(value, sniffMimeType(value));
    return typeof block === "string" ? block : [block];
  }
  if (isBinaryResult(value)) {
    const block = bytesToContent(value.data, value.mimeType);
    return typeof block === "string" ? block : [block];
  }
  if (isContentBlock(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return value;
  return jsonContent(value);
}

/**
 * Any other value as its JSON text; what JSON cannot carry (a function, a
 * cycle) or would send emptied (a Map, a Promise, an Error: `lostValue`) is
 * the tool's error.
 */
function jsonContent(value: unknown): ContentBlock[] | string {
  const converted = jsonText(value);
  if ("json" in converted) return [text(converted.json)];
  if (converted.instead !== undefined) {
    return `returned ${converted.unsendable}; ${converted.instead}`;
  }
  const hint =
    typeof value === "function" ? " (call the function if its result is what you meant)" : "";
  return `returned ${converted.unsendable}; return a string, an object, content blocks or a CallToolResult${hint}`;
}

/**
 * Turns whatever a handler returned into a CallToolResult. With an output
 * schema, the structured value is validated; a mismatch is the tool's error.
 */
export async function normalizeToolResult(
  value: unknown,
  output: CompiledSchema | undefined,
  toolName: string,
): Promise<CallToolResult> {
  const result = await shapeToolResult(value, output, toolName);
  const problem = contentListProblem(result.content, "content");
  return problem === undefined
    ? result
    : errorResult(`Tool "${toolName}" returned invalid content: ${problem}`);
}

async function shapeToolResult(
  value: unknown,
  output: CompiledSchema | undefined,
  toolName: string,
): Promise<CallToolResult> {
  if (isCallToolResult(value)) {
    const lost = lostInResult(value);
    if (lost !== undefined) return errorResult(`Tool "${toolName}" returned ${lost}`);
    if (!output || value.isError) return value;
    if (value.structuredContent === undefined) {
      return errorResult(
        `Tool "${toolName}" declares an output schema but returned no structuredContent`,
      );
    }
    const checked = await output.validate(value.structuredContent);
    if (!checked.ok) return outputMismatch(toolName, checked.message);
    return value;
  }
  if (output) {
    if (!isNonArrayObject(value)) {
      return errorResult(
        `Tool "${toolName}" declares an output schema, so its handler must return an object matching it; it returned ${value === null ? "null" : typeof value}`,
      );
    }
    const checked = await output.validate(value);
    if (!checked.ok) return outputMismatch(toolName, checked.message);
    const structuredContent = checked.value as JsonObject;
    const converted = jsonText(structuredContent);
    if ("json" in converted) return { content: [text(converted.json)], structuredContent };
    const instead =
      converted.instead ?? "return an object of JSON values that matches its output schema";
    return errorResult(`Tool "${toolName}" returned ${converted.unsendable}; ${instead}`);
  }
  const content = toContent(value);
  if (typeof content === "string") return errorResult(`Tool "${toolName}" ${content}`);
  return { content };
}

/**
 * What JSON would send emptied (`lostValue`) in a CallToolResult's own
 * values: where, and what to put there instead. Its content blocks are
 * checked as content (contentListProblem).
 */
function lostInResult(result: CallToolResult): string | undefined {
  const { structuredContent, _meta } = result;
  if (structuredContent === undefined && _meta === undefined) return undefined;
  // jsonText looks for one only where its plain JSON text could have lost one.
  const converted = jsonText({ structuredContent, _meta });
  return "instead" in converted && converted.instead !== undefined
    ? `${converted.unsendable}; ${converted.instead}`
    : undefined;
}

function outputMismatch(toolName: string, message: string): CallToolResult {
  return errorResult(
    `Tool "${toolName}" returned a result that does not match its output schema: ${message}`,
  );
}
