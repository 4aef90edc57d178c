import type { ClientCapabilities, JsonObject } from "./types.js";

/**
 * MCP Apps (SEP-1865): a tool names an HTML view, a `ui://` resource, that
 * the host renders in a sandboxed frame. The extension's identifier, in the
 * `extensions` of both sides' capabilities.
 */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";

/** The MIME type of a view's HTML, as the extension requires it. */
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

/** The URI scheme the extension reserves for views. */
export const VIEW_SCHEME = "ui://";

/** Who may call a tool: the model, the view (its "app"), or both (the default). */
export type ToolVisibility = "model" | "app";

/** A tool's `_meta.ui`: the view that shows its result, and who may call it. */
export interface ToolUiMeta {
  /** The `ui://` URI of the view; by convention, the view named like the tool. */
  resourceUri?: string;
  /** Default both: `["app"]` makes a tool only the view can call. */
  visibility?: ToolVisibility[];
}

/** Origins a view may reach, each list a CSP directive's sources (none by default). */
export interface ViewCsp {
  /** fetch, XHR and WebSocket: `connect-src`. */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts and media: `script-src`, `style-src`, `img-src`, ... */
  resourceDomains?: string[];
  /** Nested frames: `frame-src`. */
  frameDomains?: string[];
  /** The document's base URI: `base-uri`. */
  baseUriDomains?: string[];
}

/** Browser features a view asks for; a host may grant them. */
export interface ViewPermissions {
  camera?: JsonObject;
  microphone?: JsonObject;
  geolocation?: JsonObject;
  clipboardWrite?: JsonObject;
}

/** A view's `_meta.ui`: what it needs from the host's sandbox, and how it likes to be shown. */
export interface ViewUiMeta {
  csp?: ViewCsp;
  permissions?: ViewPermissions;
  /** A dedicated origin for the view, in the form the host documents. */
  domain?: string;
  /** A border and background around the view (true), none (false), or the host's choice. */
  prefersBorder?: boolean;
}

/**
 * Whether a client renders views: it declared the extension with the view
 * MIME type, in `initialize` (2025 revisions) or in each request's
 * capabilities (2026-07-28). Views are offered to no other client.
 */
export function clientShowsViews(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = capabilities?.extensions;
  if (typeof extensions !== "object" || extensions === null) return false;
  const settings = (extensions as Record<string, unknown>)[UI_EXTENSION];
  if (typeof settings !== "object" || settings === null) return false;
  const { mimeTypes } = settings as { mimeTypes?: unknown };
  return Array.isArray(mimeTypes) && mimeTypes.includes(VIEW_MIME_TYPE);
}

export function isViewUri(uri: string | undefined): boolean {
  return uri?.startsWith(VIEW_SCHEME) === true;
}
