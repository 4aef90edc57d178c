import { failure, type JsonRpcRequest, type JsonRpcResponse } from "../jsonrpc/index.js";
import { McpErrorCode } from "../protocol/errors.js";
import { META } from "../protocol/meta.js";
import { STATEFUL_VERSIONS, STATELESS_VERSION, STATELESS_VERSIONS } from "../protocol/versions.js";

/*
 * What a connection whose era its first message fixed (stdio) answers a
 * request of the other era: -32022, the 2026 era's refusal of a version,
 * naming in its data the versions this connection still serves and in its
 * message why, and what the client must do instead.
 */

/** An `initialize` on a connection a request claiming a 2026 revision made 2026-07-28's. */
export function initializeRefused(request: JsonRpcRequest): JsonRpcResponse {
  const requested = (request.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  const named = typeof requested === "string" ? JSON.stringify(requested) : "a 2025 revision";
  return failure(
    request.id,
    McpErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${named} through initialize; this connection serves ${STATELESS_VERSIONS.join(", ")} per request: a request claiming it in _meta came first, and that fixed the connection's era. A 2025 client must send initialize first, on a new connection`,
    {
      supported: [...STATELESS_VERSIONS],
      ...(typeof requested === "string" && { requested }),
    },
  );
}

/**
 * A request claiming a protocol version in its `_meta` (a 2026 request) on a
 * connection its first message made a 2025 session, negotiated at `version`
 * or not yet initialized.
 */
export function claimRefused(
  request: JsonRpcRequest,
  claimed: unknown,
  version: string | undefined,
): JsonRpcResponse {
  const session =
    version === undefined ? "a 2025 session, not yet initialized" : `a 2025 session at ${version}`;
  const first = version === undefined ? "Send initialize, then " : "Send ";
  return failure(
    request.id,
    McpErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${JSON.stringify(claimed)} on a 2025 session; this connection is ${session}: a message without a protocol version in _meta came first, and that fixed the connection's era. ${first}this session's requests without "${META.protocolVersion}" in _meta, or a ${STATELESS_VERSION} request first, on a new connection`,
    {
      supported: version === undefined ? [...STATEFUL_VERSIONS] : [version],
      requested: typeof claimed === "string" ? claimed : JSON.stringify(claimed),
    },
  );
}
