/**
 * The URI of a static file: `file:///` and its path inside resources/, each
 * segment percent-encoded (resources/docs/My Guide.md → file:///docs/My%20Guide.md).
 * The spec allows file:// for resources that behave like files without being
 * the server's real file system.
 */
export function staticResourceUri(pathInResources: string): string {
  return `file:///${pathInResources.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * The static file's URI that a file:/// URI typed by a person names, whether
 * its segments are percent-encoded or not ("file:///docs/My Guide.md" →
 * "file:///docs/My%20Guide.md"); undefined for a URI of another scheme.
 */
export function staticResourceUriOf(typed: string): string | undefined {
  if (!typed.startsWith("file:///")) return undefined;
  const path = typed.slice("file:///".length).split("/").map(decodeSegment).join("/");
  return staticResourceUri(path);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // "100%.md": a "%" that escapes nothing is the character itself
  }
}

/** "getting-started.md" → "Getting started". */
export function titleFromFileName(fileName: string): string {
  const words = fileName
    .replace(/\.[^.]*$/, "")
    .replace(/[-_\s]+/g, " ")
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
