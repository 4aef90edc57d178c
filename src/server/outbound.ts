import { onAbort } from "../define/on-abort.js";
import {
  ErrorCode,
  JsonRpcError,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../jsonrpc/index.js";
import { ClientErrorAnswer } from "./client-error-answer.js";

interface Pending {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

/**
 * Requests the server sends to the client (elicitation, sampling, roots),
 * correlated with their responses. Every pending entry has a cleanup path:
 * response, abort, or the connection closing.
 */
export class OutboundRequests {
  private readonly pending = new Map<JsonRpcId, Pending>();
  private nextId = 0;

  constructor(private readonly cancel: (id: JsonRpcId, reason: string) => void) {}

  create(
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal | undefined,
    send: (request: JsonRpcRequest) => void,
  ): Promise<unknown> {
    const id = `s-${++this.nextId}`;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const aborted = () => {
        this.pending.get(id)?.cleanup();
        this.cancel(id, "The request that asked for this was cancelled");
        reject(abortError(signal));
      };
      const stop = signal ? onAbort(signal, aborted) : undefined;
      this.pending.set(id, {
        method,
        resolve,
        reject,
        cleanup: () => {
          this.pending.delete(id);
          stop?.();
        },
      });
      send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** Returns false when the response answers nothing we asked. */
  settle(response: JsonRpcResponse): boolean {
    const pending = response.id === null ? undefined : this.pending.get(response.id);
    if (!pending) return false;
    pending.cleanup();
    if ("error" in response) {
      const { code, message, data } = response.error;
      pending.reject(new ClientErrorAnswer(pending.method, code, message, data));
    } else {
      pending.resolve(response.result);
    }
    return true;
  }

  rejectAll(reason: string): void {
    for (const pending of [...this.pending.values()]) {
      pending.cleanup();
      pending.reject(new JsonRpcError(ErrorCode.InternalError, reason));
    }
  }

  get size(): number {
    return this.pending.size;
  }
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : new Error("The request was cancelled");
}
