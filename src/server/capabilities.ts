import { TASKS_EXTENSION } from "../protocol/tasks.js";
import type { JsonObject, ServerCapabilities } from "../protocol/types.js";
import { UI_EXTENSION } from "../protocol/ui.js";
import { supports } from "../protocol/versions.js";
import type { Registry } from "../registry/registry.js";

/** The kinds a server lists, and may announce before it has any. */
export type ListedKind = "tools" | "prompts" | "resources";
/**
 * What a server may announce before it has any: a kind, views (the MCP Apps
 * extension) or tools that run as tasks (tasks, as each revision has them).
 */
export type AnnouncedKind = ListedKind | "views" | "tasks";

/**
 * What a server offers a client of protocol `version`: each kind it has (or
 * announces), completions where something completes, tasks where a tool may
 * run as one or tasks are announced (2025-11-25's capability, 2026-07-28's extension), views (MCP
 * Apps) where there are any (or they are announced), and the extensions it was given.
 */
export function offeredCapabilities(
  registry: Registry,
  announce: ReadonlySet<AnnouncedKind>,
  extensions: Record<string, JsonObject> | undefined,
  version: string,
): ServerCapabilities {
  const has = (kind: ListedKind, count: number) => count > 0 || announce.has(kind);
  const capabilities: ServerCapabilities = { logging: {} };
  if (has("tools", registry.tools.length)) capabilities.tools = { listChanged: true };
  if (has("prompts", registry.prompts.length)) capabilities.prompts = { listChanged: true };
  const resourceCount = registry.resources.length + registry.templates.length;
  if (has("resources", resourceCount)) {
    capabilities.resources = { subscribe: true, listChanged: true };
  }
  const completable = capabilities.prompts || registry.templates.length > 0;
  if (completable && supports(version, "completionsCapability")) capabilities.completions = {};
  const tasks =
    announce.has("tasks") || registry.tools.some((tool) => tool.taskSupport !== "forbidden");
  if (tasks && supports(version, "legacyTasks")) {
    capabilities.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
  }
  // SEP-2133 puts extensions in every revision's capabilities (initialize's,
  // server/discover's); the tasks extension is 2026-07-28's (2025-11-25 has `tasks`).
  const offered = {
    ...((registry.views.length > 0 || announce.has("views")) && { [UI_EXTENSION]: {} }),
    ...(tasks &&
      supports(version, "tasksExtension") && {
        [TASKS_EXTENSION]: {},
      }),
    ...extensions,
  };
  if (Object.keys(offered).length > 0) capabilities.extensions = offered;
  return capabilities;
}

/** Extension identifiers need a prefix, as `_meta` keys do: `com.example/name`. */
const EXTENSION_ID =
  /^[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?)*\/[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** The extensions given to createServer, checked: prefixed identifiers, object settings. */
export function checkExtensions(
  extensions: Record<string, JsonObject> | undefined,
): Record<string, JsonObject> | undefined {
  if (extensions === undefined) return undefined;
  for (const [id, settings] of Object.entries(extensions)) {
    if (!EXTENSION_ID.test(id)) {
      throw new TypeError(
        `extensions: ${JSON.stringify(id)} is not an extension identifier; use a prefixed name such as "com.example/my-extension"`,
      );
    }
    if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
      throw new TypeError(`extensions: the settings of "${id}" must be an object ({} for none)`);
    }
  }
  return extensions;
}
