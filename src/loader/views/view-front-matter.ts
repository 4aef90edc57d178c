import { type FrontMatter, parseFrontMatter } from "../front-matter.js";

const COMMENT_OPENING = /^\/\*---[ \t]*\r?\n/;
const COMMENT_CLOSING = /^---\*\/[ \t]*$/m;

/**
 * A view's front matter: YAML between `---` lines at the top of an HTML
 * view (removed from the page), or between `/*---` and `---*\/` lines at the
 * top of a script view (a comment, left to the build). No front matter is
 * no settings.
 */
export function viewFrontMatter(source: string, isHtml: boolean): FrontMatter {
  if (isHtml) return parseFrontMatter(source);
  const text = source.replace(/^\uFEFF/, "");
  const opening = COMMENT_OPENING.exec(text);
  if (!opening) return { ok: true, data: {}, body: source };
  const rest = text.slice(opening[0].length);
  const closing = COMMENT_CLOSING.exec(rest);
  if (!closing) {
    return {
      ok: false,
      message: 'front matter is not closed: end the comment with a line of "---*/"',
    };
  }
  // The same YAML as between "---" lines, read by the same rules (and line numbers).
  const parsed = parseFrontMatter(`---\n${rest.slice(0, closing.index)}---\n`);
  return parsed.ok ? { ok: true, data: parsed.data, body: source } : parsed;
}
