import type {
  AudioContent,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceLink,
  TextContent,
} from "./types.js";

export function text(value: string): TextContent {
  return { type: "text", text: value };
}

export function image(data: Uint8Array | string, mimeType: string): ImageContent {
  return { type: "image", data: toBase64(data), mimeType };
}

export function audio(data: Uint8Array | string, mimeType: string): AudioContent {
  return { type: "audio", data: toBase64(data), mimeType };
}

export function embeddedResource(resource: ResourceContents): EmbeddedResource {
  return { type: "resource", resource };
}

export function resourceLink(link: Omit<ResourceLink, "type">): ResourceLink {
  return { type: "resource_link", ...link };
}

/** Bytes become base64; a string is taken to be base64 already. */
export function toBase64(data: Uint8Array | string): string {
  if (typeof data === "string") return data;
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
}

const CONTENT_TYPES = new Set(["text", "image", "audio", "resource", "resource_link"]);

export function isContentBlock(value: unknown): value is ContentBlock {
  if (typeof value !== "object" || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return typeof type === "string" && CONTENT_TYPES.has(type);
}
