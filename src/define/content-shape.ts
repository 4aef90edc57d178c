import type { ContentBlock } from "../protocol/types.js";

/** A value's kind, for a message that says what was given: "a string", "null", "an array". */
export function kind(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** What the protocol requires of each content type's fields: all strings. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  text: ["text"],
  image: ["data", "mimeType"],
  audio: ["data", "mimeType"],
  resource_link: ["uri", "name"],
};

/**
 * Why a content block does not have the shape the protocol gives its type,
 * or undefined when it does. `at` names it in the message (`content[0]`).
 */
export function contentProblem(block: ContentBlock, at: string): string | undefined {
  const fields = block as unknown as Record<string, unknown>;
  for (const field of REQUIRED[block.type] ?? []) {
    if (typeof fields[field] !== "string") {
      return `${at}.${field} must be a string, got ${kind(fields[field])}`;
    }
  }
  if (block.type === "resource") {
    const resource = fields.resource as Record<string, unknown> | undefined;
    if (typeof resource !== "object" || resource === null) {
      return `${at}.resource must be an object with a uri and a text or a blob, got ${kind(resource)}`;
    }
    if (typeof resource.uri !== "string") {
      return `${at}.resource.uri must be a string, got ${kind(resource.uri)}`;
    }
    if (typeof resource.text !== "string" && typeof resource.blob !== "string") {
      return `${at}.resource needs a string text or blob`;
    }
  }
  return undefined;
}

/** The first problem among blocks, named by their index. */
export function contentListProblem(
  blocks: readonly ContentBlock[],
  name: string,
): string | undefined {
  for (const [index, block] of blocks.entries()) {
    const problem = contentProblem(block, `${name}[${index}]`);
    if (problem) return problem;
  }
  return undefined;
}
