/**
 * One raw 2026-07-28 request over HTTP, as the wire has it: the headers the
 * revision asks for (`Mcp-Name` for a request that names a tool, prompt or
 * resource) and the `_meta` envelope, for tests that read the response itself.
 */

/** What every 2026-07-28 request carries in its `_meta`. */
export const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

export interface StatelessRequest {
  readonly id: number | string;
  readonly method: string;
  /** The params, without the envelope: `_meta` gets it, and any `meta` given. */
  readonly params: Record<string, unknown>;
  /** The `Mcp-Name` header's value, for a request that names what it calls. */
  readonly name?: string;
  /** More of `_meta` (a progressToken, say). */
  readonly meta?: Record<string, unknown>;
  /** More headers (an authorization, say). */
  readonly headers?: Record<string, string>;
}

export function postStateless(url: string, request: StatelessRequest): Promise<Response> {
  const { id, method, params, name, meta, headers } = request;
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name !== undefined && { "mcp-name": name }),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method,
      params: { ...params, _meta: { ...ENVELOPE, ...meta } },
    }),
  });
}
