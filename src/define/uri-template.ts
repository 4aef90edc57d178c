/**
 * RFC 6570 URI templates, for matching: levels 1 and 2 (`{var}`, `{+var}`,
 * `{#var}`) and the level 3 `{/var}`, `{.var}`, `{?a,b}`, `{&a}` forms, with
 * comma lists and level 4's `{var:n}` prefixes and `{list*}` explosion.
 * Matching turns a concrete URI back into variable values, each a string.
 */
import {
  CharClass,
  compileTemplateParts,
  type MatchWork,
  type TemplatePart,
} from "./template-matcher.js";
import {
  type TemplateExpression as Expression,
  joinListItems,
  parseTemplateTokens,
  templateVariables,
  URI_SCHEME,
  type TemplateVariable as Variable,
} from "./uri-template-syntax.js";

export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  /**
   * Each variable's value in `uri`, or undefined if the template does not match it;
   * linear in the URI's length. `work`, if given, gains the steps it took.
   */
  match(uri: string, work?: MatchWork): Record<string, string> | undefined;
}

export function uriProblem(uri: unknown): string | undefined {
  if (typeof uri !== "string" || !URI_SCHEME.test(uri)) {
    return `uri ${JSON.stringify(uri)} is not a URI: it needs a scheme, such as "config://app" or "file:///path"`;
  }
  try {
    new URL(uri);
  } catch {
    return `uri ${JSON.stringify(uri)} is not a valid URI`;
  }
  return undefined;
}

// Reserved and fragment values take any character but a line break, as they did
// when templates were RegExps and these values were ".".
const ON_ONE_LINE = CharClass.anyExcept("\n\r\u2028\u2029");
const SIMPLE_VALUE = CharClass.anyExcept("/?#,");
const SEGMENT = CharClass.anyExcept("/?#");
const LABEL = CharClass.anyExcept("/?#.");
const QUERY = CharClass.anyExcept("#");
const QUERY_START = CharClass.oneOf("?&");
// An exploded variable holds its items and the separators between them: a
// list's commas or a label list's dots (ITEMS), a segment list's slashes.
const ITEMS = CharClass.anyExcept("/?#");
const SEGMENTS = CharClass.anyExcept("?#");

/** What separates the items of an exploded variable in each operator's expansion. */
const ITEM_SEPARATOR: Readonly<Record<string, string>> = { "/": "/", ".": "." };

const capture = (body: TemplatePart): TemplatePart => ({ kind: "capture", body: [body] });
const literal = (text: string): TemplatePart => ({ kind: "literal", text });
const optional = (...body: TemplatePart[]): TemplatePart => ({ kind: "optional", body });

/**
 * The parts an expression matches: one capture per variable, except a query's
 * one for all. Before a `{.label}` a value that may hold dots takes as few as
 * fit, so the label gets the last dot-part (`{name}{.ext}`: "report.tar", "gz").
 * A `:n` prefix holds at most n characters once decoded; an exploded variable
 * takes its items with their separators, split once matched.
 */
function partsFor({ operator, variables }: Expression, beforeLabel: boolean): TemplatePart[] {
  const value =
    (takes: CharClass, min: 0 | 1, lazy: boolean, exploded = takes) =>
    ({ explode, prefix }: Variable): TemplatePart =>
      capture({
        kind: "run",
        takes: explode ? exploded : takes,
        min,
        lazy,
        ...(prefix !== undefined && { max: prefix }),
      });
  const list = (captureOf: (variable: Variable) => TemplatePart) =>
    variables.flatMap((variable, i) =>
      i === 0 ? [captureOf(variable)] : [literal(","), captureOf(variable)],
    );
  switch (operator) {
    case "+":
      return list(value(ON_ONE_LINE, 1, true));
    case "#":
      return [optional(literal("#"), ...list(value(ON_ONE_LINE, 0, true)))];
    case "/":
      return variables.map((v) =>
        optional(literal("/"), value(SEGMENT, 0, beforeLabel, SEGMENTS)(v)),
      );
    case ".":
      // A label holds no dot; exploded labels do, so before a further {.label}
      // they take as few as fit, leaving it the last dot-part.
      return variables.map((v) =>
        optional(literal("."), value(LABEL, 0, v.explode && beforeLabel, ITEMS)(v)),
      );
    case "?":
    case "&":
      // One capture may hold the whole query ("?q=1&limit=2" for "{?q}{&limit}");
      // its prefixes are checked once it is parsed.
      return [
        optional(
          { kind: "one", takes: QUERY_START },
          capture({ kind: "run", takes: QUERY, min: 0, lazy: false }),
        ),
      ];
    default:
      return list(value(SIMPLE_VALUE, 1, beforeLabel, ITEMS));
  }
}

function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Parses a template; throws an Error that says what is wrong. */
export function parseUriTemplate(template: string): UriTemplate {
  const tokens = parseTemplateTokens(template);
  const expressions = tokens.filter((token): token is Expression => typeof token === "object");
  const parts = tokens.flatMap((token, i) => {
    if (typeof token === "string") return [literal(token)];
    const next = tokens[i + 1];
    return partsFor(token, typeof next === "object" && next.operator === ".");
  });
  const matcher = compileTemplateParts(parts);
  const variables = templateVariables(tokens).map((v) => v.name);
  const prefixes = templateVariables(tokens).flatMap(({ name, prefix }) =>
    prefix === undefined ? [] : [[name, prefix] as const],
  );

  return {
    template,
    variables,
    match(uri, work) {
      const found = matcher.match(uri, work);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      const queryVariables: Variable[] = [];
      const queryParts: string[] = [];
      let group = 0;
      for (const { operator, variables } of expressions) {
        if (operator === "?" || operator === "&") {
          const part = found[group++];
          if (part !== undefined) queryParts.push(part);
          queryVariables.push(...variables);
          continue;
        }
        const separator = ITEM_SEPARATOR[operator] ?? ",";
        for (const { name, explode } of variables) {
          const value = found[group++];
          if (value === undefined) continue;
          values[name] = explode
            ? joinListItems(value.split(separator).map(decode))
            : decode(value);
        }
      }
      // An exploded query variable is a parameter repeated ("?tags=a&tags=b").
      const query = new URLSearchParams(queryParts.join("&"));
      for (const { name, explode } of queryVariables) {
        const all = query.getAll(name);
        if (all.length > 0) values[name] = explode ? joinListItems(all) : (all[0] as string);
      }
      // A prefix holds at most its length in characters (code points), as it expands.
      for (const [name, length] of prefixes) {
        const value = values[name];
        if (value !== undefined && codePoints(value) > length) return undefined;
      }
      // A NUL in a value is never a name an author could mean, and it cuts file paths short.
      return Object.values(values).some((value) => value.includes("\0")) ? undefined : values;
    },
  };
}
