/** Mime types of the files people put under resources/, by lower-case extension. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  text: "text/plain",
  log: "text/plain",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  cjs: "text/javascript",
  jsx: "text/javascript",
  tsx: "text/x-typescript",
  cts: "text/x-typescript",
  py: "text/x-python",
  sh: "text/x-shellscript",
  ics: "text/calendar",
  json: "application/json",
  jsonl: "application/jsonl",
  ndjson: "application/x-ndjson",
  geojson: "application/geo+json",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  sql: "application/sql",
  graphql: "application/graphql",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  bmp: "image/bmp",
  ico: "image/vnd.microsoft.icon",
  tif: "image/tiff",
  tiff: "image/tiff",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  flac: "audio/flac",
  m4a: "audio/mp4",
  mp4: "video/mp4",
  webm: "video/webm",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  tar: "application/x-tar",
  wasm: "application/wasm",
  woff2: "font/woff2",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

const TEXT_APPLICATION_TYPES = new Set([
  "application/json",
  "application/jsonl",
  "application/x-ndjson",
  "application/xml",
  "application/yaml",
  "application/toml",
  "application/sql",
  "application/graphql",
  "image/svg+xml",
]);

export function mimeTypeByExtension(path: string): string | undefined {
  const extension = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : MIME_TYPES[extension];
}

/** Served as UTF-8 text; anything else is served as a base64 blob. */
export function isTextMimeType(mimeType: string): boolean {
  return (
    mimeType.startsWith("text/") ||
    TEXT_APPLICATION_TYPES.has(mimeType) ||
    /\+(json|xml)$/.test(mimeType)
  );
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * What a static file of `mimeType` serves: UTF-8 text for a text type, a
 * byte-order mark kept, so that the text encodes back to the very bytes of the
 * file; anything else, and a text file in another encoding (Latin-1, UTF-16),
 * which as text would lose characters, as its bytes, a base64 blob.
 */
export function fileContents(mimeType: string, bytes: Uint8Array): { text: string } | Uint8Array {
  if (!isTextMimeType(mimeType)) return bytes;
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    return bytes;
  }
}

/**
 * For a file whose extension says nothing: UTF-8 without NUL bytes reads as
 * plain text. `bytes` may be the file's start, cut inside a character.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
