import { JsonRpcError } from "../../jsonrpc/index.js";
import { requireString } from "../params.js";
import { listMethod } from "./list.js";
import type { MethodTable } from "./method.js";

/** The MCP error code for a resource URI nothing serves. */
export const RESOURCE_NOT_FOUND = -32002;

export const resourceMethods: MethodTable = {
  "resources/list": listMethod("resources/list", "resources"),

  "resources/templates/list": listMethod("resources/templates/list", "resourceTemplates"),

  async "resources/read"(params, rc) {
    const uri = requireString(params, "uri", "resources/read");
    const found = rc.engine.registry.resource(uri);
    if (!found) {
      throw new JsonRpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
    }
    return found.resource.read(uri, found.params, rc);
  },

  "resources/subscribe"(params, rc) {
    const uri = requireString(params, "uri", "resources/subscribe");
    rc.session.subscriptions.add(uri);
    return {};
  },

  "resources/unsubscribe"(params, rc) {
    const uri = requireString(params, "uri", "resources/unsubscribe");
    rc.session.subscriptions.delete(uri);
    return {};
  },
};
