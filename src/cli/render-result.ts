import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  ReadResourceResult,
} from "../index.js";

function byteCount(base64: string): number {
  return Buffer.from(base64, "base64").length;
}

/** One content block: text as is, anything binary as a one-line summary. */
export function renderBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${byteCount(block.data)} bytes]`;
    case "resource_link":
      return `[resource link ${block.uri}${block.title ? ` "${block.title}"` : ""}]`;
    case "resource": {
      const { resource } = block;
      if ("text" in resource) return resource.text;
      return `[resource ${resource.uri}, ${resource.mimeType ?? "binary"}, ${byteCount(resource.blob)} bytes]`;
    }
    default:
      return JSON.stringify(block);
  }
}

/**
 * What a person wants to see: the structured result as indented JSON when the
 * tool has one, else each content block (text as is, binary as a summary).
 */
export function renderToolResult(result: CallToolResult): string {
  if (result.structuredContent !== undefined)
    return JSON.stringify(result.structuredContent, null, 2);
  return result.content.map(renderBlock).join("\n");
}

/** Each message under its role ("[user]"), a blank line between messages. */
export function renderPromptResult(result: GetPromptResult): string {
  return result.messages
    .map((message) => `[${message.role}]\n${renderBlock(message.content)}`)
    .join("\n\n");
}

/** Each of the contents: text as is, a blob as `[resource uri, mime type, N bytes]`. */
export function renderResourceResult(result: ReadResourceResult): string {
  return result.contents.map((resource) => renderBlock({ type: "resource", resource })).join("\n");
}
