/**
 * The syntax of an RFC 6570 URI template as mcp-dir takes it: its literal
 * text and expressions, checked once, and how an exploded variable's items
 * make one string. What matches a URI against a template (uri-template.ts)
 * and what expands one (uri-template-expand.ts) both build on it, so they
 * read a template alike. Pure: the dev UI's page imports it.
 */

export const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const VARIABLE_NAME = /^[A-Za-z0-9_]+$/;

/** A variable of an expression: exploded (`*`), or with its `:n` prefix length if it has one. */
export type TemplateVariable = { name: string; explode: boolean; prefix: number | undefined };
export type TemplateExpression = { operator: string; variables: TemplateVariable[] };
/** A template: its literal text and its `{...}` expressions, in order. */
export type TemplateToken = string | TemplateExpression;

function parseExpression(body: string, template: string): TemplateExpression {
  const operator = /^[+#/.?&;]/.test(body) ? (body[0] as string) : "";
  if (operator === ";")
    throw new Error(`"{;...}" path parameters are not supported in ${template}`);
  const variables = body
    .slice(operator.length)
    .split(",")
    .map((spec): TemplateVariable => {
      const [, name = spec, length] = /^(.*?)(?:\*|:(\d+))?$/.exec(spec) ?? [];
      if (length !== undefined && !/^[1-9]\d{0,3}$/.test(length)) {
        throw new Error(`prefix "${spec}" in ${template} must be 1 to 9999 characters`);
      }
      return {
        name,
        explode: spec.endsWith("*"),
        prefix: length === undefined ? undefined : Number(length),
      };
    });
  for (const { name } of variables) {
    if (!VARIABLE_NAME.test(name)) {
      throw new Error(`variable "${name}" in ${template} must be letters, digits or "_"`);
    }
  }
  return { operator, variables };
}

/** Splits a template into its tokens; throws an Error that says what is wrong. */
export function parseTemplateTokens(template: string): TemplateToken[] {
  if (!URI_SCHEME.test(template)) {
    throw new Error(
      `URI template ${JSON.stringify(template)} needs a scheme, such as "users://{id}"`,
    );
  }
  const tokens: TemplateToken[] = [];
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf("{");
    const close = rest.indexOf("}");
    if (open === -1) {
      if (close !== -1) throw new Error(`unbalanced "}" in URI template ${template}`);
      tokens.push(rest);
      break;
    }
    if (close < open) throw new Error(`unbalanced braces in URI template ${template}`);
    const body = rest.slice(open + 1, close);
    if (body.includes("{")) throw new Error(`nested "{" in URI template ${template}`);
    const expression = parseExpression(body, template);
    if (open > 0) tokens.push(rest.slice(0, open));
    tokens.push(expression);
    rest = rest.slice(close + 1);
  }
  const names = templateVariables(tokens).map((v) => v.name);
  if (new Set(names).size !== names.length) {
    throw new Error(`URI template ${template} names a variable twice`);
  }
  if (names.length === 0) {
    throw new Error(`URI template ${template} has no {variables}; use "uri" for a fixed URI`);
  }
  return tokens;
}

/** The variables of a template's tokens, in order. */
export function templateVariables(tokens: readonly TemplateToken[]): TemplateVariable[] {
  return tokens.flatMap((token) => (typeof token === "string" ? [] : token.variables));
}

/**
 * An exploded variable's value as one string: its items joined with ",", an
 * item's own "," and "%" escaped (%2C, %25), so the string stays lossless:
 * `value.split(",").map(decodeURIComponent)` gives the items back exactly.
 */
export function joinListItems(items: readonly string[]): string {
  return items.map((item) => item.replaceAll("%", "%25").replaceAll(",", "%2C")).join(",");
}

/**
 * The items of such a string. Only %2C and %25 are unescaped: any other "%"
 * is the item's own, as a person may type it.
 */
export function splitListItems(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.replace(/%(2C|25)/gi, (sequence) => (sequence[2] === "5" ? "%" : ",")));
}
