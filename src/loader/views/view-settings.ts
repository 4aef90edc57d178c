import type { ViewCsp, ViewPermissions, ViewUiMeta } from "../../protocol/ui.js";

/** What a view's front matter says of it. */
export interface ViewSettings {
  title?: string;
  description?: string;
  /** Its `_meta.ui`: what it needs from the host's sandbox and how it likes to be shown. */
  ui: ViewUiMeta;
}

export type ViewSettingsRead =
  | { ok: true; settings: ViewSettings; warnings: string[] }
  | { ok: false; problems: string[] };

const KEYS = ["title", "description", "csp", "permissions", "domain", "prefersBorder"];
const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSIONS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;
/** A CSP source a host joins into its policy: a scheme, a host, no spaces, quotes or separators. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^\s;,'"]+$/i;

/** Reads and checks a view's front matter (title, description and the extension's `_meta.ui`). */
export function viewSettings(data: Record<string, unknown>): ViewSettingsRead {
  const problems: string[] = [];
  const warnings = Object.keys(data)
    .filter((key) => !KEYS.includes(key))
    .map((key) => `front matter key "${key}" is not used; the keys are ${KEYS.join(", ")}`);
  for (const key of ["title", "description", "domain"]) {
    if (data[key] !== undefined && typeof data[key] !== "string") {
      problems.push(`front matter "${key}" must be text, got ${JSON.stringify(data[key])}`);
    }
  }
  if (data.prefersBorder !== undefined && typeof data.prefersBorder !== "boolean") {
    problems.push(
      `front matter "prefersBorder" must be true or false, got ${JSON.stringify(data.prefersBorder)}`,
    );
  }
  const csp = readCsp(data.csp, problems, warnings);
  const permissions = readPermissions(data.permissions, problems);
  if (problems.length > 0) return { ok: false, problems };
  const ui: ViewUiMeta = {
    ...(csp && { csp }),
    ...(permissions && { permissions }),
    ...(typeof data.domain === "string" && { domain: data.domain }),
    ...(typeof data.prefersBorder === "boolean" && { prefersBorder: data.prefersBorder }),
  };
  const settings: ViewSettings = {
    ...(typeof data.title === "string" && { title: data.title }),
    ...(typeof data.description === "string" && { description: data.description }),
    ui,
  };
  return { ok: true, settings, warnings };
}

/** `csp:` maps connectDomains, resourceDomains, frameDomains and baseUriDomains to lists of origins. */
function readCsp(value: unknown, problems: string[], warnings: string[]): ViewCsp | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    problems.push(
      'front matter "csp" must map connectDomains, resourceDomains, frameDomains or baseUriDomains to lists of origins, such as:\n    csp:\n      connectDomains: ["https://api.example.com"]',
    );
    return undefined;
  }
  const csp: ViewCsp = {};
  for (const [key, origins] of Object.entries(value)) {
    if (!(CSP_KEYS as readonly string[]).includes(key)) {
      warnings.push(
        `front matter key "csp.${key}" is not used; the keys are ${CSP_KEYS.join(", ")}`,
      );
      continue;
    }
    const list = Array.isArray(origins) ? origins : [origins];
    const bad = list.filter((origin) => typeof origin !== "string" || !ORIGIN.test(origin));
    if (bad.length > 0) {
      problems.push(
        `front matter "csp.${key}" must list origins, such as "https://api.example.com" or "https://*.example.com"; got ${bad.map((origin) => JSON.stringify(origin)).join(", ")}`,
      );
      continue;
    }
    csp[key as (typeof CSP_KEYS)[number]] = list as string[];
  }
  return csp;
}

/** `permissions:` lists what the view asks for: camera, microphone, geolocation, clipboardWrite. */
function readPermissions(value: unknown, problems: string[]): ViewPermissions | undefined {
  if (value === undefined || value === null) return undefined;
  const asked = Array.isArray(value)
    ? value
    : typeof value === "object"
      ? Object.keys(value as object)
      : [value];
  const unknown = asked.filter((name) => !(PERMISSIONS as readonly unknown[]).includes(name));
  if (unknown.length > 0) {
    problems.push(
      `front matter "permissions" lists what the view asks for, of ${PERMISSIONS.join(", ")}; got ${unknown.map((name) => JSON.stringify(name)).join(", ")}`,
    );
    return undefined;
  }
  return Object.fromEntries(asked.map((name) => [name as string, {}])) as ViewPermissions;
}
