import { isUtf8 } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BodyOutcome } from "./exchange.js";

/** Requests whose `100 Continue` waits until their body is read. */
const awaitingContinue = new WeakMap<IncomingMessage, ServerResponse>();

/**
 * Holds back the `100 Continue` a request with `Expect: 100-continue` waits
 * for (node:http's 'checkContinue') until readBody reads its body. Whatever
 * the door refuses before then (the headers, a token, a Content-Length past
 * the limit) is answered at once, and the client never sends a body no one
 * will read: curl waits so for any body over 1 MB.
 */
export function continueWhenRead(req: IncomingMessage, res: ServerResponse): void {
  awaitingContinue.set(req, res);
}

/**
 * Reads a request body up to `maxBytes`. A declared Content-Length over the
 * limit is refused before any byte is kept; a body that grows past it stops
 * being kept at that point. A body that is not UTF-8 is refused, not decoded
 * with replacement characters.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  done: (outcome: BodyOutcome) => void,
): void {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) {
    done({ ok: false, reason: "too-large" });
    return;
  }
  const waiting = awaitingContinue.get(req);
  if (waiting) {
    awaitingContinue.delete(req);
    waiting.writeContinue();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (outcome: BodyOutcome) => {
    if (finished) return;
    finished = true;
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("error", onError);
    done(outcome);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      // Stop keeping it; the caller answers 413 and closes the connection, so
      // the rest is never read.
      chunks.length = 0;
      finish({ ok: false, reason: "too-large" });
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    const text = bytes.toString("utf8");
    // Bytes that are not UTF-8 decode to U+FFFD: only a body that holds one needs the strict check.
    const valid = !text.includes("\uFFFD") || isUtf8(bytes);
    finish(valid ? { ok: true, text } : { ok: false, reason: "not-utf8" });
  };
  const onError = () => finish({ ok: false, reason: "aborted" });
  req.on("data", onData);
  req.on("end", onEnd);
  req.on("error", onError);
}
