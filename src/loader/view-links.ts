import { toolUi } from "../define/tool-ui.js";
import type { Registry } from "../registry/registry.js";
import type { LoadWarning } from "./problems.js";

/**
 * Links between tools and views that lead nowhere: a tool whose `_meta.ui`
 * names a view nothing serves (a host would render nothing), and a view no
 * tool names (no host would find it).
 */
export function viewLinkWarnings(registry: Registry): LoadWarning[] {
  const warnings: LoadWarning[] = [];
  const views = registry.views.map((view) => view.uri as string);
  for (const { source, compiled } of registry.entries()) {
    if (compiled.kind === "tool") {
      const uri = toolUi(compiled.descriptor._meta)?.resourceUri;
      if (uri === undefined || registry.resource(uri) !== undefined) continue;
      const known = views.length > 0 ? `the views are ${views.join(", ")}` : "there is no view";
      warnings.push({
        file: source,
        message: `Tool "${compiled.name}" names the view ${uri} in _meta.ui.resourceUri, which nothing serves; ${known}`,
      });
    } else if (compiled.kind === "resource" && registry.views.includes(compiled)) {
      if (registry.toolsShownBy(compiled.uri as string).length > 0) continue;
      warnings.push({
        file: source,
        message: `the view ${compiled.uri} shows no tool: name a tool "${compiled.name}" to link it, or name the view in a tool's _meta.ui.resourceUri`,
      });
    }
  }
  return warnings;
}
