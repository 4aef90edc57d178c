import type { ResolvedHttpOptions } from "../../settings/http-options.js";
import type { AuthGate } from "./auth/gate.js";
import { headerOf, type RequestHead } from "./exchange.js";

export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** The endpoint's URL as clients reach it: the configured public URL, else what the (checked) Host says. */
export function endpointUrl(req: RequestHead, options: ResolvedHttpOptions): string {
  return (
    options.publicUrl ?? `http://${headerOf(req.headers, "host") ?? "localhost"}${options.path}`
  );
}

/**
 * The well-known URL of the metadata clients follow after a 401: its path
 * inserted between the endpoint's host and its path (RFC 9728, section 3.1),
 * so `https://example.com/team/mcp` has it at
 * `https://example.com/.well-known/oauth-protected-resource/team/mcp`.
 */
export function resourceMetadataUrl(req: RequestHead, options: ResolvedHttpOptions): string {
  const { publicUrl } = options;
  if (publicUrl === undefined) {
    const host = headerOf(req.headers, "host") ?? "localhost";
    return `http://${host}${wellKnownPath(options.path)}`;
  }
  const url = new URL(publicUrl);
  return `${url.origin}${wellKnownPath(url.pathname)}`;
}

/** An endpoint at the root has none after the well-known path: the terminating slash goes (RFC 9728). */
function wellKnownPath(endpointPath: string): string {
  return endpointPath === "/" ? PROTECTED_RESOURCE_PATH : PROTECTED_RESOURCE_PATH + endpointPath;
}

/**
 * The paths the metadata is served at: the root's, the endpoint's, and the
 * public URL's (a proxy that passes that path through asks for it).
 */
export function metadataPaths(options: ResolvedHttpOptions): ReadonlySet<string> {
  const paths = new Set([PROTECTED_RESOURCE_PATH, PROTECTED_RESOURCE_PATH + options.path]);
  if (options.publicUrl !== undefined) {
    paths.add(PROTECTED_RESOURCE_PATH + new URL(options.publicUrl).pathname);
  }
  return paths;
}

/**
 * RFC 9728 protected-resource metadata for the MCP endpoint: the resource
 * (the audience tokens must name), the authorization servers that issue
 * them, and every scope a definition needs.
 */
export function protectedResourceMetadata(
  req: RequestHead,
  gate: AuthGate,
  resourceName: string,
): Record<string, unknown> {
  return {
    ...gate.metadataFields(req),
    bearer_methods_supported: ["header"],
    resource_name: resourceName,
  };
}
