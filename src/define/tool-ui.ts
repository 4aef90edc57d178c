import type { Meta } from "../protocol/types.js";
import { isViewUri, type ToolUiMeta, type ToolVisibility } from "../protocol/ui.js";

const VISIBILITIES: readonly unknown[] = ["model", "app"] satisfies ToolVisibility[];

/** What is wrong with a tool's `_meta.ui` (MCP Apps: its view and who may call it), for its author. */
export function toolUiProblems(meta: Meta | undefined): string[] {
  const ui = meta?.ui;
  if (ui === undefined) return [];
  if (typeof ui !== "object" || ui === null || Array.isArray(ui)) {
    return [
      `_meta.ui must be an object, such as { resourceUri: "ui://weather", visibility: ["model", "app"] }; got ${JSON.stringify(ui)}`,
    ];
  }
  const problems: string[] = [];
  const { resourceUri, visibility } = ui as Record<string, unknown>;
  if (resourceUri !== undefined && !(typeof resourceUri === "string" && isViewUri(resourceUri))) {
    problems.push(
      `_meta.ui.resourceUri must name a view by its ui:// URI, such as "ui://weather" (views/weather.html); got ${JSON.stringify(resourceUri)}`,
    );
  }
  if (
    visibility !== undefined &&
    !(
      Array.isArray(visibility) &&
      visibility.length > 0 &&
      visibility.every((who) => VISIBILITIES.includes(who))
    )
  ) {
    problems.push(
      `_meta.ui.visibility must list who may call the tool, "model" and/or "app" (its view), such as ["app"]; got ${JSON.stringify(visibility)}`,
    );
  }
  return problems;
}

/** A tool's `_meta.ui`, once checked. */
export function toolUi(meta: Meta | undefined): ToolUiMeta | undefined {
  return meta?.ui as ToolUiMeta | undefined;
}

/** Whether the model may see and call a tool (its visibility includes "model", or says nothing). */
export function visibleToModel(meta: Meta | undefined): boolean {
  const visibility = toolUi(meta)?.visibility;
  return visibility === undefined || visibility.includes("model");
}
