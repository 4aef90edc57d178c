import type * as Yaml from "yaml";

/**
 * Where the YAML construct that a parse error is about opens, when the
 * parser reports it further on: a quote never closed runs to the end of the
 * front matter, and a flow list or map never closed to the next line, which
 * is where the yaml library points. The start of the last unclosed quoted
 * text or flow collection before the error is the line the author must fix;
 * undefined when there is none (a tab, a missing colon: the library points
 * at those itself).
 */
export function unclosedOpening(
  yaml: typeof Yaml,
  source: string,
  errorOffset: number,
): number | undefined {
  let opening: number | undefined;
  for (const token of new yaml.Parser().parse(source)) {
    if (token.type !== "document") continue;
    yaml.CST.visit(token, ({ value }) => {
      const start = value === undefined ? undefined : unclosedStart(value);
      if (start !== undefined && start <= errorOffset && (opening ?? -1) < start) opening = start;
    });
  }
  return opening;
}

function unclosedStart(token: Yaml.CST.Token): number | undefined {
  if (token.type === "double-quoted-scalar" || token.type === "single-quoted-scalar") {
    const { source } = token;
    // A double quote escaped by a backslash ends nothing: `"C:\\"` is closed, `"say \"` is not.
    const closing = token.type === "single-quoted-scalar" ? /^'.*'$/s : /^"(?:[^"\\]|\\.)*"$/s;
    return closing.test(source) ? undefined : token.offset;
  }
  if (token.type === "flow-collection") {
    const closed = token.end.some(
      (end) => end.type === "flow-seq-end" || end.type === "flow-map-end",
    );
    return closed ? undefined : token.start.offset;
  }
  return undefined;
}

/** The parse errors the yaml library gives a line whose key has no colon after it. */
const NO_COLON_CODES = new Set(["MULTILINE_IMPLICIT_KEY", "MISSING_CHAR"]);

/**
 * What to say of a key written without its colon (`description A prompt`),
 * for the line (0-based, in the front matter) the parser points at; the
 * library's own words ("Implicit keys need to be on a single line") name
 * nothing an author wrote. Undefined when the line has a colon, or the error
 * is another.
 */
export function missingColon(source: string, code: string, line: number): string | undefined {
  if (!NO_COLON_CODES.has(code)) return undefined;
  const text = source.split(/\r?\n/)[line] ?? "";
  const parts = /^\s*(?:-\s+)?([^\s:#'"]\S*)(?:\s+(.*?))?\s*$/.exec(text);
  if (text.includes(":") || !parts) return undefined;
  const [, key, value] = parts;
  return `${JSON.stringify(text.trim())} has no colon after its key: write ${key}: ${value ?? "..."}`;
}
