import { clientShowsViews } from "../protocol/ui.js";
import { resourcesFor } from "./list-cache.js";
import type { RequestContext } from "./request-context.js";

/**
 * The URI of a resource in the caller's list that a URI nothing serves most
 * likely meant: one that differs from it only in percent-encoding
 * (`my file.md` for `my%20file.md`, `%2f` for `%2F`). URIs are served as
 * listed, compared as strings (one resource answering to two spellings would
 * split its subscriptions), so the not-found error names it instead.
 */
export function listedUriMeant(rc: RequestContext, uri: string): string | undefined {
  const { registry, lists } = rc.engine;
  const key = unescaped(uri);
  for (const resource of resourcesFor(registry, clientShowsViews(rc.env.clientCapabilities))) {
    const listed = resource.uri;
    if (listed !== undefined && unescaped(listed) === key && lists.allows(resource, rc.env.auth)) {
      return listed;
    }
  }
  return undefined;
}

/** Each run of percent-escapes decoded where it is UTF-8, else only upper-cased. */
function unescaped(uri: string): string {
  if (!uri.includes("%")) return uri;
  return uri.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.toUpperCase();
    }
  });
}
