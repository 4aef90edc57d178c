import type { CompiledResource } from "../define/resource.js";
import type { CompiledTool } from "../define/tool.js";
import { toolUi } from "../define/tool-ui.js";
import type { Tool } from "../protocol/types.js";
import { isViewUri } from "../protocol/ui.js";

/** The fixed resources that are views (MCP Apps): those at a `ui://` URI. */
export function viewsAmong(resources: readonly CompiledResource[]): CompiledResource[] {
  return resources.filter((resource) => isViewUri(resource.uri));
}

/**
 * Each tool's descriptor as a client that shows views gets it: a tool whose
 * `_meta.ui` names no view is shown by the view of its own name, when there
 * is one (`views/weather.tsx` shows the tool `weather`). Tools that name
 * their view, and tools no view is named like, keep their descriptor.
 */
export function linkViews(
  tools: readonly CompiledTool[],
  views: readonly CompiledResource[],
): Map<CompiledTool, Tool> {
  const byName = new Map(views.map((view) => [view.name, view.uri as string]));
  const linked = new Map<CompiledTool, Tool>();
  for (const tool of tools) {
    const { descriptor } = tool;
    const ui = toolUi(descriptor._meta);
    const uri = ui?.resourceUri === undefined ? byName.get(tool.name) : undefined;
    if (uri === undefined) continue;
    linked.set(tool, {
      ...descriptor,
      _meta: { ...descriptor._meta, ui: { ...ui, resourceUri: uri } },
    });
  }
  return linked;
}
