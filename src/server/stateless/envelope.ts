import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import { isJsonObject } from "../../jsonrpc/json-object.js";
import { McpErrorCode } from "../../protocol/errors.js";
import { META } from "../../protocol/meta.js";
import {
  type ClientCapabilities,
  type Implementation,
  LOGGING_LEVELS,
  type LoggingLevel,
} from "../../protocol/types.js";
import { isStatelessVersion, STATELESS_VERSIONS } from "../../protocol/versions.js";
import type { Params } from "../params.js";

/** What a 2026-07-28 request says about itself in its `_meta`. */
export interface Envelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly logLevel: LoggingLevel | undefined;
  readonly progressToken: string | number | undefined;
}

function missing(method: string, what: string): JsonRpcError {
  return new JsonRpcError(
    ErrorCode.InvalidParams,
    `Invalid params: ${method} ${what}; protocol 2026-07-28 carries "${META.protocolVersion}" and "${META.clientCapabilities}" in the _meta of every request`,
  );
}

/**
 * Reads and checks the per-request protocol fields. Throws -32602 for missing
 * or malformed fields and -32022 (with the versions spoken) for a version this
 * server does not speak statelessly.
 */
export function readEnvelope(method: string, params: Params): Envelope {
  const meta = params._meta;
  if (!isJsonObject(meta)) throw missing(method, "has no _meta");
  const version = meta[META.protocolVersion];
  if (version === undefined) throw missing(method, `has no "${META.protocolVersion}" in _meta`);
  const capabilities = meta[META.clientCapabilities];
  if (!isJsonObject(capabilities)) {
    throw missing(
      method,
      capabilities === undefined
        ? `has no "${META.clientCapabilities}" in _meta`
        : `has a "${META.clientCapabilities}" that is not an object`,
    );
  }
  if (!isStatelessVersion(version)) {
    // `supported` holds the revisions served per request alone, as server/discover's
    // supportedVersions does: the conformance suite requires each to be among those,
    // and the official SDKs write and read only 2026 revisions there. The 2025 ones,
    // reached through initialize, are named in the message.
    throw new JsonRpcError(
      McpErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version: ${JSON.stringify(version)}; this server serves ${STATELESS_VERSIONS.join(", ")} per request (and 2024-11-05 to 2025-11-25 through initialize, which over stdio must come first on its connection)`,
      { supported: [...STATELESS_VERSIONS], requested: version },
    );
  }
  const level = meta[META.logLevel];
  if (level !== undefined && !(LOGGING_LEVELS as readonly unknown[]).includes(level)) {
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      `Invalid params: "${META.logLevel}" must be one of ${LOGGING_LEVELS.join(", ")}`,
    );
  }
  const info = meta[META.clientInfo];
  const token = meta.progressToken;
  return {
    protocolVersion: version,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo:
      isJsonObject(info) && typeof info.name === "string" && typeof info.version === "string"
        ? (info as unknown as Implementation)
        : undefined,
    logLevel: level as LoggingLevel | undefined,
    progressToken: typeof token === "string" || typeof token === "number" ? token : undefined,
  };
}
