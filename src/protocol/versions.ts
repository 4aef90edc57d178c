/** Protocol revisions of the stateful era, oldest first. */
export const STATEFUL_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
export type StatefulVersion = (typeof STATEFUL_VERSIONS)[number];

/** The stateless revision: no initialize, version and capabilities travel in every request. */
export const STATELESS_VERSION = "2026-07-28";

export const LATEST_STATEFUL_VERSION: StatefulVersion = "2025-11-25";

/** Assumed by Streamable HTTP when a client sends no MCP-Protocol-Version header. */
export const DEFAULT_HTTP_VERSION: StatefulVersion = "2025-03-26";

export type ProtocolVersion = StatefulVersion | typeof STATELESS_VERSION;

export function isStatefulVersion(version: unknown): version is StatefulVersion {
  return (STATEFUL_VERSIONS as readonly unknown[]).includes(version);
}

/** Echo the client's revision when we speak it, otherwise offer our newest. */
export function negotiateVersion(requested: unknown): StatefulVersion {
  return isStatefulVersion(requested) ? requested : LATEST_STATEFUL_VERSION;
}

/** True when `version` is `since` or newer. Revisions are dates, so they compare as strings. */
export function atLeast(version: string, since: string): boolean {
  return version >= since;
}

/** What each revision adds, in one place, so callers ask by feature rather than by date. */
export const FEATURE_SINCE = {
  toolAnnotations: "2025-03-26",
  audioContent: "2025-03-26",
  completionsCapability: "2025-03-26",
  progressMessage: "2025-03-26",
  batching: "2025-03-26",
  title: "2025-06-18",
  outputSchema: "2025-06-18",
  resourceLink: "2025-06-18",
  elicitation: "2025-06-18",
  completionContext: "2025-06-18",
  icons: "2025-11-25",
  urlElicitation: "2025-11-25",
  /** The experimental tasks of 2025-11-25 alone; 2026-07-28 has the tasks extension instead. */
  legacyTasks: "2025-11-25",
  /** The tasks extension (SEP-2663). */
  tasksExtension: "2026-07-28",
} as const;

export type Feature = keyof typeof FEATURE_SINCE;

export function supports(version: string, feature: Feature): boolean {
  if (feature === "batching") return version === "2025-03-26";
  if (feature === "legacyTasks") return version === "2025-11-25";
  return atLeast(version, FEATURE_SINCE[feature]);
}

/** What a 2026 request may claim in its `_meta` (2025 revisions are reached through initialize). */
export const STATELESS_VERSIONS: readonly string[] = [STATELESS_VERSION];

export function isStatelessVersion(version: unknown): version is typeof STATELESS_VERSION {
  return version === STATELESS_VERSION;
}
