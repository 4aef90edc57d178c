import { thrownDetail } from "../define/thrown.js";
import { ErrorCode, failure, type JsonRpcRequest, type JsonRpcResponse } from "../jsonrpc/index.js";
import type { Engine } from "./engine.js";

/**
 * Tells the developer that mcp-dir itself failed, with the stack: author
 * code's own errors are caught and reported nearer to it, so what reaches
 * here is never theirs. A `warn` sink that throws too still leaves the line
 * on the console.
 */
export function reportServerFault(engine: Engine, doing: string, error: unknown): void {
  const line = `internal error while ${doing}: a fault of mcp-dir, not of your code; please report it with this trace: ${thrownDetail(error)}`;
  try {
    engine.warn(line);
  } catch {
    console.error(`mcp-dir: ${line}`);
  }
}

/**
 * The answer to a request that failed on the way to its handler or back, for
 * a reason of the server's own: -32603, saying whose fault it is.
 */
export function serverFault(
  engine: Engine,
  request: JsonRpcRequest,
  error: unknown,
): JsonRpcResponse {
  const { id, method } = request;
  reportServerFault(engine, `serving ${method} (request id ${JSON.stringify(id)})`, error);
  return failure(
    id,
    ErrorCode.InternalError,
    `Internal error: the server failed while serving ${method}; the fault is the server's, not the request's, and its log has the details`,
  );
}
