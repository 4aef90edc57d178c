import { text } from "../protocol/content.js";
import type { ContentBlock } from "../protocol/types.js";

/* A static prompt's `{{name}}` placeholders, filled with its arguments. */

/** `{{ name }}`: what stands between the braces, white space around it left out. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** A placeholder that names no argument is still one (filled with nothing) when its name is of these characters. */
const BARE_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * The names of the placeholders in `template` that name none of `declared`
 * and so are filled with nothing: `{{café}}` counts only when an argument is
 * called so, and `{{#each}}` or `{{ a + b }}` never, being left as written.
 */
export function unfilledPlaceholders(template: string, declared: ReadonlySet<string>): string[] {
  const names = [...template.matchAll(PLACEHOLDER)].map(([, name]) => name as string);
  return [...new Set(names)].filter((name) => !declared.has(name) && BARE_NAME.test(name));
}

/** Every argument's `{{name}}`, whatever its characters, and any other `{{bare_name}}`. */
function interpolate(
  template: string,
  args: Record<string, unknown>,
  declared: ReadonlySet<string>,
): string {
  return template.replace(PLACEHOLDER, (placeholder, name: string) => {
    if (!declared.has(name) && !BARE_NAME.test(name)) return placeholder;
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    return value === undefined || value === null ? "" : String(value);
  });
}

/** Static message text, in a string or a text block, gets its placeholders filled. */
export function fillContent(
  content: string | ContentBlock,
  args: Record<string, unknown>,
  declared: ReadonlySet<string>,
): ContentBlock {
  if (typeof content === "string") return text(interpolate(content, args, declared));
  if (content.type === "text") {
    return { ...content, text: interpolate(content.text, args, declared) };
  }
  return content;
}
