import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Implementation,
  Prompt,
  PromptMessage,
  Resource,
  ResourceTemplate,
  Tool,
} from "./types.js";
import { supports } from "./versions.js";

/**
 * Shapes outgoing values for the revision a client negotiated: fields and
 * content types that revision does not know are left out. Values are returned
 * unchanged (same object) when nothing needs removing, so the newest clients pay nothing.
 */

function omit<T extends object>(value: T, keys: readonly string[]): T {
  if (!keys.some((key) => key in value)) return value;
  const copy = { ...value } as Record<string, unknown>;
  for (const key of keys) delete copy[key];
  return copy as T;
}

function droppedKeys(version: string, withAnnotations = false): string[] {
  const keys: string[] = [];
  if (!supports(version, "title")) keys.push("title");
  if (!supports(version, "icons")) keys.push("icons");
  if (withAnnotations && !supports(version, "toolAnnotations")) keys.push("annotations");
  return keys;
}

export function toolForVersion(tool: Tool, version: string): Tool {
  const keys = droppedKeys(version, true);
  if (!supports(version, "outputSchema")) keys.push("outputSchema");
  if (!supports(version, "legacyTasks")) keys.push("execution");
  return omit(tool, keys);
}

export function promptForVersion(prompt: Prompt, version: string): Prompt {
  const shaped = omit(prompt, droppedKeys(version));
  if (supports(version, "title") || !shaped.arguments?.some((a) => "title" in a)) return shaped;
  return { ...shaped, arguments: shaped.arguments.map((a) => omit(a, ["title"])) };
}

export function resourceForVersion<T extends Resource | ResourceTemplate>(
  resource: T,
  version: string,
): T {
  return omit(resource, droppedKeys(version));
}

export function implementationForVersion(info: Implementation, version: string): Implementation {
  const keys = droppedKeys(version);
  if (!supports(version, "icons")) keys.push("description", "websiteUrl");
  return omit(info, keys);
}

function contentKnown(block: ContentBlock, version: string): boolean {
  if (block.type === "audio") return supports(version, "audioContent");
  if (block.type === "resource_link") return supports(version, "resourceLink");
  return true;
}

export function contentForVersion(blocks: ContentBlock[], version: string): ContentBlock[] {
  if (blocks.every((block) => contentKnown(block, version) && !hasNewerFields(block, version))) {
    return blocks;
  }
  return blocks
    .filter((block) => contentKnown(block, version))
    .map((block) => (block.type === "resource_link" ? omit(block, droppedKeys(version)) : block));
}

function hasNewerFields(block: ContentBlock, version: string): boolean {
  return block.type === "resource_link" && droppedKeys(version).some((key) => key in block);
}

export function callToolResultForVersion(result: CallToolResult, version: string): CallToolResult {
  const content = contentForVersion(result.content, version);
  const keepStructured =
    supports(version, "outputSchema") || result.structuredContent === undefined;
  if (content === result.content && keepStructured) return result;
  const shaped: CallToolResult = { ...result, content };
  if (!keepStructured) delete shaped.structuredContent;
  return shaped;
}

export function promptResultForVersion(result: GetPromptResult, version: string): GetPromptResult {
  let changed = false;
  const messages: PromptMessage[] = [];
  for (const message of result.messages) {
    const [content] = contentForVersion([message.content], version);
    if (content === message.content) {
      messages.push(message);
    } else {
      changed = true;
      if (content) messages.push({ ...message, content });
    }
  }
  return changed ? { ...result, messages } : result;
}
