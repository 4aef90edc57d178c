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
