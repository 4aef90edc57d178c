import { LEGACY_RESOURCE_URI, visibleToModel } from "../define/tool-ui.js";
import type { Tool } from "../protocol/types.js";

/**
 * A tool as a client that does not show views (MCP Apps) gets it: without
 * `_meta.ui` (nor the deprecated `_meta["ui/resourceUri"]`), since it names nothing that client can render; undefined for a
 * tool only a view may call (`visibility: ["app"]`), which such a client
 * never has. Others are offered views only when they declare the extension.
 */
export function toolWithoutViews(tool: Tool): Tool | undefined {
  const meta = tool._meta;
  if (meta === undefined || !("ui" in meta || LEGACY_RESOURCE_URI in meta)) return tool;
  if (!visibleToModel(meta)) return undefined;
  const { ui: _ui, [LEGACY_RESOURCE_URI]: _legacy, ...rest } = meta;
  const { _meta: _all, ...bare } = tool;
  return Object.keys(rest).length > 0 ? { ...bare, _meta: rest } : bare;
}
