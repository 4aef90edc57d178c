import { headerOf, type RequestHead } from "./exchange.js";
import type { ResolvedHttpOptions } from "./options.js";

export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** Where clients reach this server: the configured public URL, else what the (checked) Host says. */
export function baseUrl(req: RequestHead, options: ResolvedHttpOptions): string {
  return options.publicUrl ?? `http://${headerOf(req.headers, "host") ?? "localhost"}`;
}

/** RFC 9728 protected-resource metadata for the MCP endpoint. */
export function protectedResourceMetadata(
  req: RequestHead,
  options: ResolvedHttpOptions,
  resourceName: string,
): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    resource: `${baseUrl(req, options)}${options.path}`,
  };
  if (options.authorizationServers.length > 0) {
    metadata.authorization_servers = options.authorizationServers;
  }
  metadata.bearer_methods_supported = ["header"];
  metadata.resource_name = resourceName;
  return metadata;
}
