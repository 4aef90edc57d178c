import { open, readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { brand } from "../define/brand.js";
import type { Definition } from "../registry/definition.js";
import { isInsideDir } from "./inside-dir.js";
import { fileContents, looksLikeText, mimeTypeByExtension } from "./mime-types.js";
import { staticResourceUri, titleFromFileName } from "./resource-naming.js";

const SNIFF_BYTES = 4096;

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
  return brand("resource", {
    name: pathInResources,
    title: titleFromFileName(pathInResources.split("/").pop() ?? pathInResources),
    uri: staticResourceUri(pathInResources),
    mimeType,
    size,
    read: async () => fileContents(mimeType, await readInside(dir, file)),
  }) as unknown as Definition;
}

/**
 * Reads `file` (relative to `dir`) at request time. A link swapped since the
 * scan must not lead out of the server directory, and errors, which clients
 * see, name the file by its path inside the directory, never an absolute one.
 */
async function readInside(dir: string, file: string): Promise<Buffer> {
  try {
    const [root, real] = await Promise.all([realpath(dir), realpath(join(dir, file))]);
    if (!isInsideDir(root, real)) {
      throw new Error(
        `${file} is a symbolic link that leads outside the server directory; it is not served`,
      );
    }
    return await readFile(real);
  } catch (error) {
    throw unreadable(file, error);
  }
}

function unreadable(file: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new Error(`${file} no longer exists`);
  if (code === "EACCES" || code === "EPERM") {
    return new Error(`${file} cannot be read: permission denied`);
  }
  if (code === "EISDIR") return new Error(`${file} is now a folder, not a file`);
  if (code !== undefined) return new Error(`${file} cannot be read (${code})`);
  return error instanceof Error ? error : new Error(`${file} cannot be read`);
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
