import type * as Yaml from "yaml";
import { LazyPackage } from "../define/lazy-package.js";

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
    const [position] = error.linePos ?? [];
    // The opening "---" is line 1 of the file.
    const where = position ? ` (${position.line + 1}:${position.col})` : "";
    return {
      ok: false,
      message: `front matter is not valid YAML: ${firstLine(error.message)}${where}`,
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

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
}
