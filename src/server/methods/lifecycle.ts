import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import { implementationForVersion } from "../../protocol/downgrade.js";
import type { ClientCapabilities, Implementation, InitializeResult } from "../../protocol/types.js";
import { negotiateVersion } from "../../protocol/versions.js";
import { heldSize } from "../memory-budget.js";
import { invalidParams, type Params, requireObject, requireString } from "../params.js";
import type { RequestContext } from "../request-context.js";
import { type MethodTable, STATEFUL_ONLY, sessionOf } from "./method.js";

export const lifecycleMethods: MethodTable = {
  initialize: { eras: STATEFUL_ONLY, beforeInitialize: true, handler: initialize },
  ping: { eras: STATEFUL_ONLY, beforeInitialize: true, handler: () => ({}) },
};

function initialize(params: Params, rc: RequestContext): InitializeResult {
  const session = sessionOf(rc);
  if (session.initialized) {
    throw new JsonRpcError(
      ErrorCode.InvalidRequest,
      "initialize was already called on this session",
    );
  }
  // Each required by every revision, as the official SDK's servers require them.
  const requested = requireString(params, "protocolVersion", "initialize");
  const capabilities = requireObject(params, "capabilities", "initialize") as ClientCapabilities;
  const clientInfo = requireObject(params, "clientInfo", "initialize");
  if (typeof clientInfo.name !== "string" || typeof clientInfo.version !== "string") {
    throw invalidParams('initialize: "clientInfo" needs a string "name" and "version"');
  }
  const version = negotiateVersion(requested);
  // The session keeps what its client told of itself for as long as it lasts.
  session.hold(heldSize(capabilities) + heldSize(clientInfo), "initialize");
  session.initialize(version, capabilities, clientInfo as unknown as Implementation);
  const { engine } = rc;
  const result: InitializeResult = {
    protocolVersion: version,
    capabilities: engine.capabilities(version),
    serverInfo: implementationForVersion(engine.serverInfo(), version),
  };
  if (engine.instructions !== undefined) result.instructions = engine.instructions;
  return result;
}
