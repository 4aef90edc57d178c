import type { ResolvedHttpOptions } from "../../settings/http-options.js";
import type { AuthGate } from "./auth/gate.js";
import { headerOf, type RequestHead } from "./exchange.js";

export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** Where clients reach this server: the configured public URL, else what the (checked) Host says. */
export function baseUrl(req: RequestHead, options: ResolvedHttpOptions): string {
  return options.publicUrl ?? `http://${headerOf(req.headers, "host") ?? "localhost"}`;
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
