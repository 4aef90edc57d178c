/**
 * MCP's own error codes, beside JSON-RPC's (`ErrorCode` in the jsonrpc layer).
 * Since 2026-07-28, -32020 to -32099 belong to the specification; the codes
 * below -32019 are the legacy implementation-defined range.
 */
export const McpErrorCode = {
  /** Transport-level refusals, and requests past the server's capacity (legacy range; the SDKs use it the same way). */
  TransportError: -32000,
  /** 2025 Streamable HTTP: an unknown or ended session. */
  SessionNotFound: -32001,
  /** Up to 2025-11-25: a resource URI nothing serves (2026-07-28 uses -32602 with `data.uri`). */
  ResourceNotFound: -32002,
  /**
   * mcp-dir's own (legacy range): the caller's access token lacks scopes the
   * definition needs, named in `data.requiredScopes`; over HTTP a 403 with
   * an `insufficient_scope` challenge carries it.
   */
  InsufficientScope: -32003,
  /** 2026-07-28: HTTP headers and body disagree, or a required header is missing. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the request's protocol version is not one this server speaks. */
  UnsupportedProtocolVersion: -32022,
  /** 2025-11-25 only: the tool cannot go on until the user has visited a URL. */
  UrlElicitationRequired: -32042,
  /** Closes a 2025 HTTP request the client cancelled (LSP's RequestCancelled). */
  RequestCancelled: -32800,
} as const;
