import type * as Yaml from "yaml";
import { LazyPackage } from "../define/lazy-package.js";
import { missingColon, unclosedOpening } from "./yaml-mistake.js";

/**
 * The YAML parser: only Markdown prompts need it, and loading it is a tenth of
 * `serve`'s start-up (the path is the same from src/define/ and dist/chunks/,
 * where LazyPackage requires it: see src/vendor/).
 */
export const yamlParser = new LazyPackage<typeof Yaml>("../vendor/yaml.cjs");

export type FrontMatter =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; message: string };

const FENCE = /^---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * Splits a Markdown file into its YAML front matter (between `---` lines at the
 * very top) and its body. A file without front matter is all body.
 */
export function parseFrontMatter(source: string): FrontMatter {
  const text = source.replace(/^\uFEFF/, "");
  const opening = FENCE.exec(text);
  if (!opening) return { ok: true, data: {}, body: text };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) {
    return { ok: false, message: 'front matter is not closed: end it with a line of "---"' };
  }
  const frontMatter = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  let data: unknown;
  try {
    data = yamlParser.get().parse(frontMatter);
  } catch (error) {
    if (!(error instanceof yamlParser.get().YAMLParseError)) throw error;
    const opens = unclosedOpening(yamlParser.get(), frontMatter, error.pos[0]);
    const colon =
      error.linePos?.[0] && missingColon(frontMatter, error.code, error.linePos[0].line - 1);
    const where =
      opens !== undefined
        ? ` (${lineAndColumn(frontMatter, opens)}, where it opens)`
        : error.linePos?.[0]
          ? ` (${error.linePos[0].line + 1}:${error.linePos[0].col})`
          : "";
    return {
      ok: false,
      message: `front matter is not valid YAML: ${colon || firstLine(error.message)}${where}`,
    };
  }
  if (data === null || data === undefined) return { ok: true, data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) {
    return {
      ok: false,
      message: "front matter must be a mapping of keys, such as description: ...",
    };
  }
  return { ok: true, data: data as Record<string, unknown>, body };
}

/** `line:column` of an offset in the front matter, as lines of the file (the opening "---" is line 1). */
function lineAndColumn(frontMatter: string, offset: number): string {
  const before = frontMatter.slice(0, offset);
  const line = before.split("\n").length + 1;
  return `${line}:${offset - before.lastIndexOf("\n")}`;
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
}
