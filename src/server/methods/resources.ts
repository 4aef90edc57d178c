import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import { McpErrorCode } from "../../protocol/errors.js";
import { requireString } from "../params.js";
import { listMethod } from "./list.js";
import { type MethodTable, sessionOf } from "./method.js";

/** The MCP error code for a resource URI nothing serves (2025 revisions). */
export const RESOURCE_NOT_FOUND = McpErrorCode.ResourceNotFound;

export const resourceMethods: MethodTable = {
  "resources/list": listMethod("resources/list", "resources"),

  "resources/templates/list": listMethod("resources/templates/list", "resourceTemplates"),

  async "resources/read"(params, rc) {
    const uri = requireString(params, "uri", "resources/read");
    const found = rc.engine.registry.resource(uri);
    const stateless = rc.env.era === "stateless";
    if (!found) {
      // 2026-07-28 answers an unknown URI as invalid params; earlier revisions with -32002.
      const code = stateless ? ErrorCode.InvalidParams : RESOURCE_NOT_FOUND;
      throw new JsonRpcError(code, `Resource not found: ${uri}`, { uri });
    }
    const result = await found.resource.read(uri, found.params, rc);
    return stateless ? { ...result, ...rc.engine.cacheHints("read") } : result;
  },
};

/** Resource subscriptions held by a 2025 session (2026-07-28 uses subscriptions/listen). */
export const subscriptionMethods: MethodTable = {
  "resources/subscribe"(params, rc) {
    const uri = requireString(params, "uri", "resources/subscribe");
    sessionOf(rc).subscriptions.add(uri);
    return {};
  },

  "resources/unsubscribe"(params, rc) {
    const uri = requireString(params, "uri", "resources/unsubscribe");
    sessionOf(rc).subscriptions.delete(uri);
    return {};
  },
};
