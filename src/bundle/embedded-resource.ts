import { brand } from "../define/brand.js";
import { fileContents, looksLikeText, mimeTypeByExtension } from "../loader/mime-types.js";
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
  const contents = fileContents(mimeType, bytes);
  return brand("resource", {
    name: pathInResources,
    title: titleFromFileName(pathInResources.split("/").pop() ?? pathInResources),
    uri: staticResourceUri(pathInResources),
    mimeType,
    size: bytes.length,
    read: () => contents,
  }) as unknown as Definition;
}
