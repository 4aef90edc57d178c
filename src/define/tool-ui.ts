import type { Meta } from "../protocol/types.js";
import { isViewUri, type ToolUiMeta, type ToolVisibility } from "../protocol/ui.js";

const VISIBILITIES: readonly unknown[] = ["model", "app"] satisfies ToolVisibility[];

/**
 * The flat key the extension had before `_meta.ui.resourceUri`: deprecated,
 * still written by guides and read by hosts; ext-apps' `registerAppTool`
 * takes either and gives both.
 */
export const LEGACY_RESOURCE_URI = "ui/resourceUri";

/** What is wrong with a tool's `_meta.ui` (MCP Apps: its view and who may call it), for its author. */
export function toolUiProblems(meta: Meta | undefined): string[] {
  const legacy = meta?.[LEGACY_RESOURCE_URI];
  const problems = legacy === undefined ? [] : legacyProblems(legacy, meta?.ui);
  return [...problems, ...uiProblems(meta?.ui)];
}

function legacyProblems(legacy: unknown, ui: unknown): string[] {
  if (!(typeof legacy === "string" && isViewUri(legacy))) {
    return [
      `_meta["${LEGACY_RESOURCE_URI}"] (deprecated: use _meta.ui.resourceUri) must name a view by its ui:// URI, such as "ui://weather" (views/weather.html); got ${JSON.stringify(legacy)}`,
    ];
  }
  const named = (ui as { resourceUri?: unknown } | undefined)?.resourceUri;
  if (typeof ui === "object" && ui !== null && named !== undefined && named !== legacy) {
    return [
      `_meta["${LEGACY_RESOURCE_URI}"] is ${JSON.stringify(legacy)} and _meta.ui.resourceUri ${JSON.stringify(named)}: name the view once, in _meta.ui.resourceUri`,
    ];
  }
  return [];
}

/**
 * A tool's `_meta` as it is listed: a view named only by the deprecated key
 * is named in `_meta.ui.resourceUri` too, where the extension has hosts look.
 */
export function toolMetaWithUi(meta: Meta): Meta {
  const legacy = meta[LEGACY_RESOURCE_URI];
  const ui = meta.ui as ToolUiMeta | undefined;
  if (typeof legacy !== "string" || ui?.resourceUri !== undefined) return meta;
  return { ...meta, ui: { ...ui, resourceUri: legacy } };
}

function uiProblems(ui: unknown): string[] {
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
