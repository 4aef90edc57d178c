/**
 * RFC 6570 expansion, level 4 as mcp-dir parses templates (no `{;...}`):
 * variables' values in, a URI out, which parseUriTemplate's `match` reads
 * back into the same values wherever RFC 6570 leaves a URI one reading. Pure:
 * the dev UI's page builds a template's URI with it, so the page asks for
 * what any RFC 6570 client would, and the server's own templates match it.
 */
import {
  parseTemplateTokens,
  splitListItems,
  type TemplateExpression,
} from "./uri-template-syntax.js";

/** How each operator expands (RFC 6570, appendix A). */
type Operator = { first: string; separator: string; named: boolean; reserved: boolean };

const OPERATORS: Readonly<Record<string, Operator>> = {
  "": { first: "", separator: ",", named: false, reserved: false },
  "+": { first: "", separator: ",", named: false, reserved: true },
  "#": { first: "#", separator: ",", named: false, reserved: true },
  ".": { first: ".", separator: ".", named: false, reserved: false },
  "/": { first: "/", separator: "/", named: false, reserved: false },
  "?": { first: "?", separator: "&", named: true, reserved: false },
  "&": { first: "&", separator: "&", named: true, reserved: false },
};

/** What is not unreserved is escaped. */
const NOT_UNRESERVED = /[^A-Za-z0-9\-._~]/gu;
/** `{+var}` and `{#var}` also keep reserved characters, and escapes already made. */
const NOT_UNRESERVED_OR_RESERVED = /%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/gu;

function escaped(character: string, name: string): string {
  if (character.length === 3 && character[0] === "%") return character;
  const code = character.charCodeAt(0);
  // encodeURIComponent leaves !'()* as they are; RFC 6570 escapes them.
  if (code < 0x80) return `%${code.toString(16).toUpperCase().padStart(2, "0")}`;
  try {
    return encodeURIComponent(character);
  } catch {
    throw new Error(
      `the value of "${name}" holds half of a surrogate pair, which no URI can carry; remove it`,
    );
  }
}

function encode(value: string, reserved: boolean, name: string): string {
  return value.replace(reserved ? NOT_UNRESERVED_OR_RESERVED : NOT_UNRESERVED, (character) =>
    escaped(character, name),
  );
}

/** At most `length` characters (code points, as the matcher counts them). */
function prefixOf(value: string, length: number | undefined): string {
  if (length === undefined || value.length <= length) return value;
  return Array.from(value).slice(0, length).join("");
}

function expandExpression(
  { operator, variables }: TemplateExpression,
  values: Readonly<Record<string, string | undefined>>,
): string {
  const { first, separator, named, reserved } = OPERATORS[operator] as Operator;
  const expanded: string[] = [];
  for (const { name, explode, prefix } of variables) {
    // Own values only: a variable may be called "constructor".
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) continue;
    const item = (text: string) => {
      const encoded = encode(text, reserved, name);
      return named ? `${name}=${encoded}` : encoded;
    };
    expanded.push(
      explode ? splitListItems(value).map(item).join(separator) : item(prefixOf(value, prefix)),
    );
  }
  return expanded.length === 0 ? "" : first + expanded.join(separator);
}

/**
 * The URI `template` names for `values`: each variable's value as `match`
 * gives it, an exploded variable's items joined with "," (an item's own ","
 * as %2C, "%" as %25). A variable without a value is left out, and an
 * expression with none expands to nothing, as RFC 6570 has it; so does an
 * empty `{var}` or `{+var}`. A `{var:n}` takes the first n characters of a
 * longer value. The template's literal text is kept as written, as `match`
 * compares it. Throws an Error that says what is wrong with the template or a
 * value.
 *
 * What does not come back from `match`, because the URI RFC 6570 makes can be
 * read another way: in `{+var}` and `{#var}` an escape typed in the value
 * ("%2F" comes back "/") and, exploded, an item's comma; a dot in a `{.var}`
 * label; in `{/a,b}`, `b` without `a`; a second `{?...}`, which starts with
 * "?" again (write `{&...}`); an empty `{var}` or `{+var}`; and a value longer
 * than its prefix.
 */
export function expandUriTemplate(
  template: string,
  values: Readonly<Record<string, string | undefined>>,
): string {
  return parseTemplateTokens(template)
    .map((token) => (typeof token === "string" ? token : expandExpression(token, values)))
    .join("");
}
