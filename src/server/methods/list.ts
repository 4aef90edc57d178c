import { META } from "../../protocol/meta.js";
import { clientShowsViews } from "../../protocol/ui.js";
import { LIST_METHOD, type ListKind } from "../list-cache.js";
import { optionalString } from "../params.js";
import type { MethodHandler } from "./method.js";

/** Every list method (tools, prompts, resources, templates): one cached, paginated page. */
export function listMethod(kind: ListKind): MethodHandler {
  const method = LIST_METHOD[kind];
  return (params, rc) => {
    const cursor = optionalString(params, "cursor", method);
    const { engine, env } = rc;
    const fields =
      env.era === "stateless"
        ? {
            resultType: "complete",
            ...engine.cacheHints("list", engine.lists.varies(kind, env.auth)),
            _meta: { [META.serverInfo]: engine.serverInfo() },
          }
        : undefined;
    const showsViews = clientShowsViews(env.clientCapabilities);
    return engine.lists.page(kind, env.protocolVersion, cursor, engine.pageSize, fields, {
      auth: env.auth,
      showsViews,
    });
  };
}
