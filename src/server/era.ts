import { isRequest, type Parsed } from "../jsonrpc/index.js";
import { claimedVersion } from "../protocol/meta.js";
import { isStatelessVersion } from "../protocol/versions.js";
import type { Era } from "./env.js";

/**
 * The era of a message, decided once, where it enters: a request whose
 * `_meta` claims a protocol version is 2026-07-28, and `initialize` without a
 * claim is the 2025 handshake whatever else is said. For anything else the
 * transport's MCP-Protocol-Version header decides (HTTP); without one (stdio)
 * it is a 2025 session's message.
 */
export function eraOf(parsed: Parsed, versionHeader?: string): Era {
  if (parsed.kind === "single" && isRequest(parsed.message)) {
    const { message } = parsed;
    if (claimedVersion(message.params) !== undefined) return "stateless";
    if (message.method === "initialize") return "stateful";
  }
  return isStatelessVersion(versionHeader) ? "stateless" : "stateful";
}
