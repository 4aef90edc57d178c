import { brand } from "../define/brand.js";
import { isTextMimeType, looksLikeText, mimeTypeByExtension } from "../loader/mime-types.js";
import { staticResourceUri, titleFromFileName } from "../loader/resource-naming.js";
import type { Definition } from "../registry/definition.js";

const SNIFF_BYTES = 4096;

/**
 * A static file of resources/, embedded in a build: the same name, URI, title
 * and MIME type `serve` gives it, served from the bytes taken at build time.
 */
export function embeddedResource(file: string, bytes: Uint8Array): Definition {
  const pathInResources = file.split("/").slice(1).join("/");
  const mimeType =
    mimeTypeByExtension(file) ??
    (looksLikeText(bytes.subarray(0, SNIFF_BYTES)) ? "text/plain" : "application/octet-stream");
  const text = isTextMimeType(mimeType) ? new TextDecoder().decode(bytes) : undefined;
  return brand("resource", {
    name: pathInResources,
    title: titleFromFileName(pathInResources.split("/").pop() ?? pathInResources),
    uri: staticResourceUri(pathInResources),
    mimeType,
    size: bytes.length,
    read: () => (text === undefined ? bytes : { text }),
  }) as unknown as Definition;
}
