/** Recognises the common image and audio formats by their first bytes. */
const SIGNATURES: { mimeType: string; matches(b: Uint8Array): boolean }[] = [
  { mimeType: "image/png", matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47]) },
  { mimeType: "image/jpeg", matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mimeType: "image/gif", matches: (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) },
  { mimeType: "image/webp", matches: (b) => riff(b, "WEBP") },
  { mimeType: "audio/wav", matches: (b) => riff(b, "WAVE") },
  { mimeType: "audio/mpeg", matches: (b) => startsWith(b, [0x49, 0x44, 0x33]) },
  { mimeType: "audio/ogg", matches: (b) => startsWith(b, [0x4f, 0x67, 0x67, 0x53]) },
  { mimeType: "audio/flac", matches: (b) => startsWith(b, [0x66, 0x4c, 0x61, 0x43]) },
];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

function riff(bytes: Uint8Array, form: string): boolean {
  return (
    startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) &&
    String.fromCharCode(...bytes.subarray(8, 12)) === form
  );
}

export function sniffMimeType(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find((signature) => signature.matches(bytes))?.mimeType;
}
