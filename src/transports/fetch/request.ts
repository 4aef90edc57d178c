import type { BodyOutcome, BodySource, HeaderMap, RequestHead } from "../http/exchange.js";

/** A web `Request` as the door reads it: its head, and the request itself for its body. */
export interface FetchRequestHead extends RequestHead {
  readonly request: Request;
}

export function requestHead(request: Request): FetchRequestHead {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) headers[name] = value;
  // A Request made in code has no Host header; the runtimes that serve one take its URL's from it.
  headers.host ??= url.host;
  return { method: request.method, url: url.pathname + url.search, headers, request };
}

/**
 * Reads a `Request` body as the door's limits allow: at most `maxBytes`, and,
 * unless `timeoutMs` is 0, whole within `timeoutMs` of the call. The runtimes
 * that serve fetch (Bun, Deno) bound neither by themselves.
 */
export function fetchBody(timeoutMs: number): BodySource<FetchRequestHead> {
  return {
    read(head, maxBytes, done) {
      void readLimited(head.request, head.headers, maxBytes, timeoutMs).then(done, () =>
        done({ ok: false, reason: "aborted" }),
      );
    },
    // Reading stopped at a limit and cancelled the body then: nothing is left to drop.
    drop() {},
  };
}

/** Throws on bytes that are not UTF-8 rather than replacing them; every runtime has it. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

async function readLimited(
  request: Request,
  headers: HeaderMap,
  maxBytes: number,
  timeoutMs: number,
): Promise<BodyOutcome> {
  const declared = headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { ok: false, reason: "too-large" };
  }
  if (request.body === null) return { ok: true, text: "" };
  const reader = request.body.getReader();
  let timedOut = false;
  const timer =
    timeoutMs === 0
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          reader.cancel().catch(() => {});
        }, timeoutMs);
  const timedOutOutcome: BodyOutcome = { ok: false, reason: "timed-out", afterMs: timeoutMs };
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readAll(reader, maxBytes);
  } catch (error) {
    if (timedOut) return timedOutOutcome;
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // A cancelled read ends as if the body had: only the flag tells the two apart.
  if (timedOut) return timedOutOutcome;
  if (bytes === undefined) return { ok: false, reason: "too-large" };
  try {
    return { ok: true, text: UTF8.decode(bytes) };
  } catch {
    return { ok: false, reason: "not-utf8" };
  }
}

/** The whole body, or undefined once it grows past `maxBytes` (then cancelled). */
async function readAll(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
