import { ErrorCode, JsonRpcError } from "../jsonrpc/index.js";
import type { RequestContext } from "./request-context.js";

/** A definition whose handler runs under a time limit. */
export interface Timed {
  /** What messages call it: `Tool "search"`, `Resource "notes://today"`. */
  readonly label: string;
  /** Where its own limit is set: `defineTool`, `definePrompt`, `defineResource`. */
  readonly definer: string;
  /** Its own limit; undefined takes its folder's, else the server's `callTimeoutMs`. */
  readonly timeoutMs: number | undefined;
  /** The limit the nearest folder that sets one gives it, and that folder's `_middleware` file. */
  readonly folder?: { readonly ms: number; readonly source: string } | undefined;
}

/**
 * Runs one handler run under its limit (0: none). When the limit passes
 * first, `ctx.signal` is aborted with a TimeoutError naming it, and the run
 * ends with what `passed` makes of that message: by default a -32603 error,
 * a tool's `isError` result. When the request is cancelled first, the run
 * ends at once, rejected with the cancellation's reason: nothing is sent for
 * it, so nothing waits on a handler that ignores its signal (a request id is
 * free again, the end of stdio's input is not held up). A 2026-07-28 request
 * that asks for input has a run per round, and each run has the whole limit.
 */
export function withinTimeLimit<T>(
  rc: RequestContext,
  timed: Timed,
  run: () => Promise<T>,
  passed: (message: string) => T = (message) => {
    throw new JsonRpcError(ErrorCode.InternalError, message);
  },
): Promise<T> {
  const limit = timed.timeoutMs ?? timed.folder?.ms ?? rc.engine.callTimeoutMs;
  const { inFlight } = rc.env;
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopWaiting = inFlight.whenCancelled((reason) => {
      clearTimeout(timer);
      reject(reason);
    });
    // Cancelled before its run began (while it waited to start): it never starts.
    if (inFlight.cancelled) return;
    if (limit !== 0) {
      timer = setTimeout(() => {
        stopWaiting();
        const message = timeLimitMessage(timed, limit);
        inFlight.stop(new DOMException(message, "TimeoutError"));
        if (rc.env.trace) rc.env.trace.timedOut = message;
        try {
          resolve(passed(message));
        } catch (error) {
          reject(error);
        }
      }, limit);
      // A handler that hangs must not keep a process alive that would otherwise end.
      (timer as { unref?: () => void }).unref?.();
    }
    // then() with both settlers rather than finally(): one promise less for every run.
    run().then(
      (value) => {
        clearTimeout(timer);
        stopWaiting();
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        stopWaiting();
        reject(error);
      },
    );
  });
}

function timeLimitMessage(timed: Timed, limit: number): string {
  const { label, definer, folder } = timed;
  if (timed.timeoutMs !== undefined) {
    return `${label} did not finish within its time limit of ${limit} ms and was stopped; to allow longer, raise timeoutMs in its ${definer} (0: no limit)`;
  }
  if (folder !== undefined) {
    return `${label} did not finish within the time limit of ${limit} ms that ${folder.source} sets and was stopped; to allow longer, raise timeoutMs there, or set timeoutMs in its ${definer} (0: no limit)`;
  }
  return `${label} did not finish within the server's time limit of ${limit} ms and was stopped; to allow longer, set timeoutMs in its ${definer}, or callTimeoutMs in mcp-dir.config.ts or createServer (0: no limit)`;
}
