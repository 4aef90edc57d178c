import type { McpServer } from "../index.js";

/**
 * One line per view: where it is served, its file, and the tools it shows
 * (named like it, or naming it in their `_meta.ui`). Empty when there is none.
 */
export function viewLines(server: McpServer): string[] {
  const { registry } = server;
  const sources = new Map(registry.entries().map(({ source, compiled }) => [compiled, source]));
  return registry.views.map((view) => {
    const tools = registry.toolsShownBy(view.uri as string).map((tool) => tool.name);
    const shows = tools.length > 0 ? `shows ${tools.join(", ")}` : "shows no tool";
    return `view: ${view.uri} (${sources.get(view)}) ${shows}`;
  });
}

/** The tools a view shows, by name, for `list`. */
export function toolsOfView(server: McpServer, uri: string): string[] {
  return server.registry.toolsShownBy(uri).map((tool) => tool.name);
}
