import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { brand } from "../define/brand.js";
import type { Definition } from "../registry/definition.js";
import { isTextMimeType, looksLikeText, mimeTypeByExtension } from "./mime-types.js";

const SNIFF_BYTES = 4096;

/**
 * The URI of a static file: `file:///` and its path inside resources/, each
 * segment percent-encoded (resources/docs/My Guide.md → file:///docs/My%20Guide.md).
 * The spec allows file:// for resources that behave like files without being
 * the server's real file system.
 */
export function staticResourceUri(pathInResources: string): string {
  return `file:///${pathInResources.split("/").map(encodeURIComponent).join("/")}`;
}

/** "getting-started.md" → "Getting started". */
export function titleFromFileName(fileName: string): string {
  const words = fileName
    .replace(/\.[^.]*$/, "")
    .replace(/[-_\s]+/g, " ")
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A file under resources/ that is not code, served as it is on disk: read at
 * each request, so edits show; text types as UTF-8, others as base64 blobs.
 */
export async function staticResource(dir: string, file: string): Promise<Definition> {
  const absolutePath = join(dir, file);
  const pathInResources = file.split("/").slice(1).join("/");
  const { size, head } = await peek(absolutePath);
  const mimeType =
    mimeTypeByExtension(file) ?? (looksLikeText(head) ? "text/plain" : "application/octet-stream");
  const isText = isTextMimeType(mimeType);
  return brand("resource", {
    name: pathInResources,
    title: titleFromFileName(pathInResources.split("/").pop() ?? pathInResources),
    uri: staticResourceUri(pathInResources),
    mimeType,
    size,
    read: async () =>
      isText
        ? { text: await readFile(absolutePath, "utf8") }
        : new Uint8Array(await readFile(absolutePath)),
  }) as unknown as Definition;
}

async function peek(path: string): Promise<{ size: number; head: Uint8Array }> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const head = new Uint8Array(Math.min(size, SNIFF_BYTES));
    await handle.read(head, 0, head.length, 0);
    return { size, head };
  } finally {
    await handle.close();
  }
}
