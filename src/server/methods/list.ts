import type { ListKind } from "../list-cache.js";
import { optionalString } from "../params.js";
import type { MethodHandler } from "./method.js";

/** Every list method (tools, prompts, resources, templates): one cached, paginated page. */
export function listMethod(method: string, kind: ListKind): MethodHandler {
  return (params, rc) => {
    const cursor = optionalString(params, "cursor", method);
    return rc.engine.lists.page(kind, rc.protocolVersion, cursor, rc.engine.pageSize);
  };
}
