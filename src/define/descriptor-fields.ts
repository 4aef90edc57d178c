/**
 * What is wrong with the fields of a tool's, a prompt's or a resource's
 * descriptor that a client shows (title, description, icons, annotations),
 * whatever a JavaScript author gave: the official clients check every item
 * of a list, so one field of the wrong type would make them refuse the whole
 * list, every other definition with it.
 */
import { kind } from "./content-shape.js";
import { isPlainObject } from "./plain-object.js";
import { isStringArray } from "./string-array.js";

const ICON = '{ src: "https://example.com/icon.png", mimeType: "image/png" }';
const TOOL_HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/** A string's JSON, a number or a boolean as written, anything else its kind. */
const shown = (value: unknown): string =>
  typeof value === "string"
    ? JSON.stringify(value)
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : kind(value);

export function displayProblems(fields: {
  title?: unknown;
  description?: unknown;
  icons?: unknown;
}): string[] {
  const problems: string[] = [];
  for (const key of ["title", "description"] as const) {
    const value = fields[key];
    if (value !== undefined && typeof value !== "string") {
      problems.push(`${key} must be a string, got ${kind(value)}`);
    }
  }
  problems.push(...iconsProblems(fields.icons));
  return problems;
}

function iconsProblems(icons: unknown): string[] {
  if (icons === undefined) return [];
  if (!Array.isArray(icons))
    return [`icons must be an array of icons ([${ICON}]), got ${kind(icons)}`];
  return icons.flatMap((icon: unknown, index) => {
    const at = `icons[${index}]`;
    if (!isPlainObject(icon)) return [`${at} must be an icon (${ICON}), got ${kind(icon)}`];
    const { src, mimeType, sizes, theme } = icon;
    const problems: string[] = [];
    if (typeof src !== "string") {
      problems.push(`${at}.src must be a string (an https: URL or a data: URI), got ${kind(src)}`);
    }
    if (mimeType !== undefined && typeof mimeType !== "string") {
      problems.push(`${at}.mimeType must be a string ("image/png"), got ${kind(mimeType)}`);
    }
    if (sizes !== undefined && !isStringArray(sizes)) {
      problems.push(
        `${at}.sizes must be an array of strings (["48x48"] or ["any"]), got ${kind(sizes)}`,
      );
    }
    if (theme !== undefined && theme !== "light" && theme !== "dark") {
      problems.push(`${at}.theme must be "light" or "dark", got ${shown(theme)}`);
    }
    return problems;
  });
}

export function toolAnnotationsProblems(annotations: unknown): string[] {
  if (annotations === undefined) return [];
  if (!isPlainObject(annotations)) {
    return [`annotations must be an object ({ readOnlyHint: true }), got ${kind(annotations)}`];
  }
  const problems: string[] = [];
  if (annotations.title !== undefined && typeof annotations.title !== "string") {
    problems.push(`annotations.title must be a string, got ${kind(annotations.title)}`);
  }
  for (const hint of TOOL_HINTS) {
    const value = annotations[hint];
    if (value !== undefined && typeof value !== "boolean") {
      problems.push(`annotations.${hint} must be true or false, got ${shown(value)}`);
    }
  }
  return problems;
}

/** A resource's annotations: who it is for, how much it matters (0 to 1), when it last changed. */
export function resourceAnnotationsProblems(annotations: unknown): string[] {
  if (annotations === undefined) return [];
  if (!isPlainObject(annotations)) {
    return [`annotations must be an object ({ audience: ["user"] }), got ${kind(annotations)}`];
  }
  const { audience, priority, lastModified } = annotations;
  const problems: string[] = [];
  if (
    audience !== undefined &&
    !(Array.isArray(audience) && audience.every((role) => role === "user" || role === "assistant"))
  ) {
    problems.push(
      `annotations.audience must be an array of "user" and "assistant", got ${kind(audience)}`,
    );
  }
  if (priority !== undefined && !(typeof priority === "number" && priority >= 0 && priority <= 1)) {
    problems.push(`annotations.priority must be a number from 0 to 1, got ${shown(priority)}`);
  }
  if (lastModified !== undefined && !isDateTime(lastModified)) {
    problems.push(
      `annotations.lastModified must be an ISO 8601 date and time ("2025-01-12T15:00:58Z"), got ${shown(lastModified)}`,
    );
  }
  return problems;
}

/** A Date (sent as its ISO string), or such a string with its offset. */
function isDateTime(value: unknown): boolean {
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  return (
    typeof value === "string" &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value) &&
    !Number.isNaN(Date.parse(value))
  );
}
