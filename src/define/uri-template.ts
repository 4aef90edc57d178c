/**
 * RFC 6570 URI templates, for matching: levels 1 and 2 (`{var}`, `{+var}`,
 * `{#var}`) and the level 3 `{/var}`, `{.var}`, `{?a,b}`, `{&a}` forms, with
 * comma lists. Matching turns a concrete URI back into variable values.
 */
export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  match(uri: string): Record<string, string> | undefined;
}

const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const VARIABLE_NAME = /^[A-Za-z0-9_]+$/;
const SEGMENT = "[^/?#]*";

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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

type Expression = { operator: string; names: string[] };

function parseExpression(body: string, template: string): Expression {
  const operator = /^[+#/.?&;]/.test(body) ? (body[0] as string) : "";
  if (operator === ";")
    throw new Error(`"{;...}" path parameters are not supported in ${template}`);
  const names = body
    .slice(operator.length)
    .split(",")
    .map((name) => name.replace(/(\*|:\d+)$/, ""));
  for (const name of names) {
    if (!VARIABLE_NAME.test(name)) {
      throw new Error(`variable "${name}" in ${template} must be letters, digits or "_"`);
    }
  }
  return { operator, names };
}

function patternFor({ operator, names }: Expression): string {
  const groups = (value: string, separator: string) =>
    names.map(() => `(${value})`).join(escapeRegExp(separator));
  switch (operator) {
    case "+":
      return groups(".+?", ",");
    case "#":
      return `(?:#${groups(".*?", ",")})?`;
    case "/":
      return names.map(() => `(?:/(${SEGMENT}))?`).join("");
    case ".":
      return names.map(() => `(?:\\.([^/?#.]*))?`).join("");
    case "?":
    case "&":
      return `(?:[?&](${"[^#]*"}))?`;
    default:
      return groups("[^/?#,]+", ",");
  }
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
  if (!URI_SCHEME.test(template)) {
    throw new Error(
      `URI template ${JSON.stringify(template)} needs a scheme, such as "users://{id}"`,
    );
  }
  const expressions: Expression[] = [];
  let pattern = "^";
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf("{");
    const close = rest.indexOf("}");
    if (open === -1) {
      if (close !== -1) throw new Error(`unbalanced "}" in URI template ${template}`);
      pattern += escapeRegExp(rest);
      break;
    }
    if (close < open) throw new Error(`unbalanced braces in URI template ${template}`);
    const body = rest.slice(open + 1, close);
    if (body.includes("{")) throw new Error(`nested "{" in URI template ${template}`);
    const expression = parseExpression(body, template);
    expressions.push(expression);
    pattern += escapeRegExp(rest.slice(0, open)) + patternFor(expression);
    rest = rest.slice(close + 1);
  }
  const regex = new RegExp(`${pattern}$`);
  const variables = expressions.flatMap((e) => e.names);
  if (new Set(variables).size !== variables.length) {
    throw new Error(`URI template ${template} names a variable twice`);
  }
  if (variables.length === 0) {
    throw new Error(`URI template ${template} has no {variables}; use "uri" for a fixed URI`);
  }

  return {
    template,
    variables,
    match(uri) {
      const found = regex.exec(uri);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      const queryNames: string[] = [];
      const queryParts: string[] = [];
      let group = 1;
      for (const { operator, names } of expressions) {
        if (operator === "?" || operator === "&") {
          // One group may hold the whole query ("?q=1&limit=2" for "{?q}{&limit}").
          const part = found[group++];
          if (part !== undefined) queryParts.push(part);
          queryNames.push(...names);
          continue;
        }
        for (const name of names) {
          const value = found[group++];
          if (value !== undefined) values[name] = decode(value);
        }
      }
      const query = new URLSearchParams(queryParts.join("&"));
      for (const name of queryNames) {
        const value = query.get(name);
        if (value !== null) values[name] = value;
      }
      // A NUL in a value is never a name an author could mean, and it cuts file paths short.
      return Object.values(values).some((value) => value.includes("\0")) ? undefined : values;
    },
  };
}
