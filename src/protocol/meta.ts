/** The `_meta` keys the 2026-07-28 revision reserves for protocol fields. */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/** The protocol version a request's `_meta` claims, if it claims one (the 2026 era's mark). */
export function claimedVersion(params: unknown): unknown {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  return (meta as Record<string, unknown>)[META.protocolVersion];
}
