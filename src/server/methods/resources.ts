import type { CompiledResource } from "../../define/resource.js";
import { thrownMessage } from "../../define/thrown.js";
import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import { resourceForVersion } from "../../protocol/downgrade.js";
import { McpErrorCode } from "../../protocol/errors.js";
import type { Resource } from "../../protocol/types.js";
import { clientShowsViews, isViewUri } from "../../protocol/ui.js";
import { resourcesFor } from "../list-cache.js";
import { listedUriMeant } from "../listed-uri-meant.js";
import { subscriptionSize } from "../memory-budget.js";
import { decodeCursor, paginate } from "../pagination.js";
import { invalidParams, optionalString, type Params, requireString } from "../params.js";
import type { RequestContext } from "../request-context.js";
import { requireScopes } from "../scope-check.js";
import { withinTimeLimit } from "../time-limit.js";
import { listMethod } from "./list.js";
import { BOTH_ERAS, type MethodTable, rethrow, STATEFUL_ONLY, sessionOf } from "./method.js";

/** The MCP error code for a resource URI nothing serves (2025 revisions). */
export const RESOURCE_NOT_FOUND = McpErrorCode.ResourceNotFound;

const cachedResourceList = listMethod("resources");

export const resourceMethods: MethodTable = {
  // Cached pages, unless a template lists its instances: those are asked for at each list.
  "resources/list": {
    eras: BOTH_ERAS,
    capability: "resources",
    handler(params, rc) {
      const { registry, lists } = rc.engine;
      const listing = registry.templates.filter(
        (template) => template.instances && lists.allows(template, rc.env.auth),
      );
      return listing.length === 0
        ? cachedResourceList(params, rc)
        : listWithInstances(params, rc, listing);
    },
  },

  "resources/templates/list": {
    eras: BOTH_ERAS,
    capability: "resources",
    handler: listMethod("resourceTemplates"),
  },

  "resources/read": {
    eras: BOTH_ERAS,
    capability: "resources",
    asksInput: true,
    names: "uri",
    handler: read,
  },
};

async function read(params: Params, rc: RequestContext): Promise<unknown> {
  const uri = boundedUri(params, "resources/read");
  // A view (ui://) exists only for a client that shows views.
  const hidden = isViewUri(uri) && !clientShowsViews(rc.env.clientCapabilities);
  const found = hidden ? undefined : rc.engine.registry.resource(uri);
  const stateless = rc.env.era === "stateless";
  if (!found) {
    // 2026-07-28 answers an unknown URI as invalid params; earlier revisions with -32002.
    const code = stateless ? ErrorCode.InvalidParams : RESOURCE_NOT_FOUND;
    const listedUri = listedUriMeant(rc, uri);
    if (listedUri === undefined)
      throw new JsonRpcError(code, `Resource not found: ${uri}`, { uri });
    throw new JsonRpcError(
      code,
      `Resource not found: ${uri}; did you mean ${listedUri}? A URI is read as it is listed, its percent-encoding included`,
      { uri, listedUri },
    );
  }
  const { resource } = found;
  const { chain, timeout, scopes } = rc.engine.registry.served(resource);
  requireScopes(rc.env, scopes, `resource ${JSON.stringify(uri)}`);
  const timed = {
    label: `Resource ${JSON.stringify(uri)}`,
    definer: "defineResource",
    timeoutMs: resource.definition.timeoutMs,
    folder: timeout,
  };
  const run = chain
    ? () =>
        chain(rc, found.params, {
          uri,
          run: (given) => resource.read(uri, given as Record<string, string>, rc),
          settle: (value) => resource.settle(value, uri),
          fail: rethrow,
        })
    : () => resource.read(uri, found.params, rc);
  const result = await withinTimeLimit(rc, timed, run);
  return stateless ? { ...result, ...rc.engine.cacheHints("read") } : result;
}

/** A resource's scopes, when something serves `uri`: following its changes is reading it. */
export function requireResourceScopes(rc: RequestContext, uri: string): void {
  const found = rc.engine.registry.resource(uri);
  if (found) {
    requireScopes(
      rc.env,
      rc.engine.registry.served(found.resource).scopes,
      `resource ${JSON.stringify(uri)}`,
    );
  }
}

/**
 * The longest URI a client may read or subscribe to: what a client
 * subscribes to the server keeps, and every read of a URI matches it
 * against each template, so neither may grow with the body limit.
 */
export const MAX_URI_LENGTH = 8192;

/** The uri of a read or a subscription, refused when too long. */
function boundedUri(params: Record<string, unknown>, method: string): string {
  const uri = requireString(params, "uri", method);
  if (uri.length > MAX_URI_LENGTH) {
    throw invalidParams(
      `${method}: the uri is ${uri.length} characters long; at most ${MAX_URI_LENGTH} are accepted`,
    );
  }
  return uri;
}

/** Resource subscriptions held by a 2025 session (2026-07-28 uses subscriptions/listen). */
export const subscriptionMethods: MethodTable = {
  "resources/subscribe": {
    eras: STATEFUL_ONLY,
    needsSession: true,
    handler(params, rc) {
      const uri = boundedUri(params, "resources/subscribe");
      requireResourceScopes(rc, uri);
      const session = sessionOf(rc);
      const { subscriptions } = session;
      if (subscriptions.has(uri)) return {};
      const most = rc.engine.maxSubscriptions;
      if (subscriptions.size >= most) {
        throw invalidParams(
          `resources/subscribe: this session already holds ${most} subscriptions, the most it may; unsubscribe from one, or raise maxSubscriptions`,
        );
      }
      session.hold(subscriptionSize(uri), "resources/subscribe");
      subscriptions.add(uri);
      return {};
    },
  },

  "resources/unsubscribe": {
    eras: STATEFUL_ONLY,
    handler(params, rc) {
      const uri = requireString(params, "uri", "resources/unsubscribe");
      const session = sessionOf(rc);
      if (session.subscriptions.delete(uri)) session.release(subscriptionSize(uri));
      return {};
    },
  },
};

async function listWithInstances(
  params: Params,
  rc: RequestContext,
  listing: readonly CompiledResource[],
): Promise<Record<string, unknown>> {
  const cursor = optionalString(params, "cursor", "resources/list");
  const { engine, env } = rc;
  const instances: Resource[] = [];
  for (const template of listing) {
    try {
      instances.push(...(await (template.instances as () => Promise<Resource[]>)()));
    } catch (error) {
      throw new JsonRpcError(
        ErrorCode.InternalError,
        `resources/list failed: ${thrownMessage(error)}`,
      );
    }
  }
  const showsViews = clientShowsViews(env.clientCapabilities);
  const items = [
    ...resourcesFor(engine.registry, showsViews)
      .filter((r) => engine.lists.allows(r, env.auth))
      .map((r) => r.descriptor as Resource),
    ...instances.filter((resource) => showsViews || !isViewUri(resource.uri)),
  ].map((resource) => resourceForVersion(resource, env.protocolVersion));
  const { items: page, nextCursor } = paginate(
    items,
    decodeCursor(cursor, "resources/list", items.length),
    engine.pageSize,
    "resources/list",
  );
  return {
    resources: page,
    ...(nextCursor !== undefined && { nextCursor }),
    ...(env.era === "stateless" &&
      engine.cacheHints("list", engine.lists.varies("resources", env.auth))),
  };
}
