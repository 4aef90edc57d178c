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

/** Reads a `Request` body as the door's limit allows: what a runtime serving fetch brings. */
export const FETCH_BODY: BodySource<FetchRequestHead> = {
  read(head, maxBytes, done) {
    void readLimited(head.request, head.headers, maxBytes).then(done, () =>
      done({ ok: false, reason: "aborted" }),
    );
  },
  // Reading stopped at the limit and cancelled the body then: nothing is left to drop.
  drop() {},
};

/** Throws on bytes that are not UTF-8 rather than replacing them; every runtime has it. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

async function readLimited(
  request: Request,
  headers: HeaderMap,
  maxBytes: number,
): Promise<BodyOutcome> {
  const declared = headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { ok: false, reason: "too-large" };
  }
  if (request.body === null) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: "too-large" };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return { ok: true, text: UTF8.decode(bytes) };
  } catch {
    return { ok: false, reason: "not-utf8" };
  }
}
