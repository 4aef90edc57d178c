import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import { implementationForVersion } from "../../protocol/downgrade.js";
import type { ClientCapabilities, Implementation, InitializeResult } from "../../protocol/types.js";
import { negotiateVersion } from "../../protocol/versions.js";
import { invalidParams, optionalObject, requireString } from "../params.js";
import { type MethodTable, sessionOf } from "./method.js";

export const lifecycleMethods: MethodTable = {
  initialize(params, rc): InitializeResult {
    const session = sessionOf(rc);
    if (session.initialized) {
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        "initialize was already called on this session",
      );
    }
    const requested = requireString(params, "protocolVersion", "initialize");
    const capabilities = (optionalObject(params, "capabilities", "initialize") ??
      {}) as ClientCapabilities;
    const clientInfo = optionalObject(params, "clientInfo", "initialize");
    if (
      clientInfo &&
      (typeof clientInfo.name !== "string" || typeof clientInfo.version !== "string")
    ) {
      throw invalidParams('initialize: "clientInfo" needs a string "name" and "version"');
    }
    const version = negotiateVersion(requested);
    session.initialize(version, capabilities, clientInfo as Implementation | undefined);
    const { engine } = rc;
    const result: InitializeResult = {
      protocolVersion: version,
      capabilities: engine.capabilities(version),
      serverInfo: implementationForVersion(engine.serverInfo(), version),
    };
    if (engine.instructions !== undefined) result.instructions = engine.instructions;
    return result;
  },

  ping: () => ({}),
};
