/**
 * Tool parameters mirrored into HTTP headers (2026-07-28, SEP-2243): a property
 * of a tool's input schema marked `"x-mcp-header": "Name"` travels as the
 * `Mcp-Param-Name` header too, and the server checks the two agree.
 */
export interface MirroredParam {
  header: string;
  path: readonly string[];
}

const mirrored = new WeakMap<object, readonly MirroredParam[]>();

/** The parameters an input schema marks with `x-mcp-header`, reached through `properties` only. */
export function mirroredParams(schema: object): readonly MirroredParam[] {
  let found = mirrored.get(schema);
  if (found === undefined) {
    const list: MirroredParam[] = [];
    collect(schema, [], list);
    found = list;
    mirrored.set(schema, found);
  }
  return found;
}

function collect(schema: unknown, path: string[], into: MirroredParam[]): void {
  if (typeof schema !== "object" || schema === null) return;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== "object" || properties === null) return;
  for (const [key, property] of Object.entries(properties)) {
    if (typeof property !== "object" || property === null) continue;
    const header = (property as Record<string, unknown>)["x-mcp-header"];
    if (typeof header === "string") into.push({ header, path: [...path, key] });
    collect(property, [...path, key], into);
  }
}

/** HTTP field-name token characters (RFC 9110 tchar). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * What is wrong with a schema's `x-mcp-header` marks, as the revision
 * constrains them: a token name, unique regardless of case, on a string,
 * integer or boolean property reached through `properties` only.
 */
export function mirroredParamProblems(schema: object): string[] {
  const problems = misplacedMarks(schema, "", true);
  const seen = new Map<string, string>();
  for (const { header, path } of mirroredParams(schema)) {
    const where = `input property "${path.join(".")}"`;
    if (!TOKEN.test(header)) {
      problems.push(
        `${where}: "x-mcp-header" ${JSON.stringify(header)} is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only)`,
      );
    }
    const other = seen.get(header.toLowerCase());
    if (other !== undefined) {
      problems.push(
        `${where}: "x-mcp-header" ${JSON.stringify(header)} is already used by "${other}" (names are compared without case)`,
      );
    }
    seen.set(header.toLowerCase(), path.join("."));
    const type = typeAt(schema, path);
    if (type !== "string" && type !== "integer" && type !== "boolean") {
      problems.push(
        `${where}: "x-mcp-header" needs a string, integer or boolean property, not ${type === undefined ? "one without a type" : `"${type}"`}`,
      );
    }
  }
  return problems;
}

/** Marks that no chain of `properties` keys reaches (under items, anyOf, $defs, ...). */
function misplacedMarks(node: unknown, at: string, reachable: boolean): string[] {
  if (typeof node !== "object" || node === null) return [];
  const found: string[] = [];
  if (!reachable && "x-mcp-header" in node) {
    found.push(
      `"x-mcp-header" at ${at || "the schema root"} is not reached through "properties" alone; mark only properties of the input object (or of objects nested in it through "properties")`,
    );
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === "properties" && reachable && typeof child === "object" && child !== null) {
      for (const [name, property] of Object.entries(child)) {
        found.push(...misplacedMarks(property, `${at}/properties/${name}`, true));
      }
    } else {
      found.push(...misplacedMarks(child, `${at}/${key}`, false));
    }
  }
  return found;
}

function typeAt(schema: object, path: readonly string[]): unknown {
  let node: unknown = schema;
  for (const key of path) {
    node = (node as { properties?: Record<string, unknown> }).properties?.[key];
  }
  return (node as { type?: unknown } | undefined)?.type;
}
