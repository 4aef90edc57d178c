import type * as z from "zod";
import type * as z3 from "zod/v3";
import type { JsonObject } from "../protocol/types.js";
import { LazyPackage } from "./lazy-package.js";
import { zod3JsonSchema } from "./zod3-json-schema.js";

/**
 * zod 4 as the process already has it, loaded when a schema first needs it (a
 * server whose schemas are JSON Schema loads none): the CommonJS copy that an
 * author file compiled to CommonJS required (tsx's output outside "type":
 * "module"), else the ES module build, the instance every `import "zod"`
 * gets (Node's require(esm)). Not both: each is some 95 modules to load.
 */
function loadedZod(specifier: string): typeof z {
  const { createRequire } = process.getBuiltinModule("node:module");
  const require = createRequire(import.meta.url);
  const commonJs = require.cache[require.resolve(specifier)];
  if (commonJs !== undefined) return commonJs.exports as typeof z;
  // Where import.meta has no resolve (jest's VM modules), the CommonJS copy.
  const resolve = import.meta.resolve as ((specifier: string) => string) | undefined;
  if (typeof resolve !== "function") return require(specifier) as typeof z;
  const { fileURLToPath } = process.getBuiltinModule("node:url");
  return require(fileURLToPath(resolve(specifier))) as typeof z;
}

export const zod4 = new LazyPackage<typeof z>("zod", loadedZod);

type Zod4Schema = z.core.$ZodType;
type Zod3Schema = z3.ZodTypeAny;
type Io = "input" | "output";

const SAFE_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * A zod schema's JSON Schema, the same for zod 3 and zod 4: no `$schema`
 * (2020-12 is MCP's default), `additionalProperties` only where zod enforces
 * it (strict objects, and any object's output, which zod strips), no
 * `minimum`/`maximum` that only repeat the safe-integer range of `.int()`,
 * and recursion a `$ref` ("#", or one of `$defs`).
 */
export function zodJsonSchema(schema: Zod4Schema | Zod3Schema, io: Io): JsonObject {
  const json =
    "_zod" in schema
      ? (zod4.get().toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonObject)
      : zod3JsonSchema(schema, io);
  const { $schema: _dialect, ...rest } = json;
  forEachSchema(rest, (node) => {
    if (io === "input" && node.additionalProperties === true) delete node.additionalProperties;
    if (node.type === "integer") {
      if (node.minimum === -SAFE_BOUND) delete node.minimum;
      if (node.maximum === SAFE_BOUND) delete node.maximum;
    }
  });
  return rest;
}

const CHILD_MAPS = ["properties", "patternProperties", "$defs", "definitions"];
const CHILD_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const CHILD_SCHEMAS = ["items", "additionalProperties", "not", "contains"];

/** Visits every subschema (not the maps that hold them). */
function forEachSchema(node: JsonObject, visit: (schema: JsonObject) => void): void {
  visit(node);
  const isSchema = (value: unknown): value is JsonObject =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  for (const key of CHILD_MAPS) {
    const map = node[key];
    if (isSchema(map))
      for (const child of Object.values(map)) if (isSchema(child)) forEachSchema(child, visit);
  }
  for (const key of CHILD_LISTS) {
    const list = node[key];
    if (Array.isArray(list))
      for (const child of list) if (isSchema(child)) forEachSchema(child, visit);
  }
  for (const key of CHILD_SCHEMAS) {
    const child = node[key];
    if (Array.isArray(child))
      for (const item of child)
        if (isSchema(item)) forEachSchema(item, visit);
        else if (isSchema(child)) forEachSchema(child, visit);
  }
}

/** What to use instead of a type JSON cannot carry. */
const INSTEAD: Readonly<Record<string, string>> = {
  date: "z.iso.datetime() (a string) or z.coerce.date()",
  bigint: "z.number().int(), or a string",
  map: "z.record(...)",
  set: "z.array(...)",
};

/**
 * The first field (path from the top, "[]" for array items) whose type JSON
 * cannot carry, such as z.date() or z.bigint(): no client could send it (or
 * read it, in an output), so every call would fail. Undefined when all can.
 */
export function unrepresentableField(
  schema: Zod4Schema | Zod3Schema,
  io: Io,
): { path: string; type: string; instead: string } | undefined {
  const found = findUnrepresentable(schema, "_zod" in schema ? zod4Node(io) : zod3Node, "");
  if (found === undefined) return undefined;
  const instead = INSTEAD[found.type] ?? "a JSON type (string, number, boolean, array or object)";
  return { ...found, instead };
}

const ZOD4_UNREPRESENTABLE = new Set([
  "date",
  "bigint",
  "symbol",
  "function",
  "map",
  "set",
  "nan",
  "promise",
]);

const ZOD3_UNREPRESENTABLE: Readonly<Record<string, string>> = {
  ZodDate: "date",
  ZodBigInt: "bigint",
  ZodSymbol: "symbol",
  ZodFunction: "function",
  ZodMap: "map",
  ZodSet: "set",
  ZodNaN: "nan",
  ZodPromise: "promise",
};

/** One schema as the walk sees it: a type JSON cannot carry, or the schemas inside it. */
type SchemaNode =
  | { unrepresentable: string }
  | { children: Array<{ schema: unknown; key?: string }> };

/** Reads one schema of one zod major version as a node; each version spells its definitions differently. */
type ReadNode = (schema: unknown) => SchemaNode;

type Found = { path: string; type: string } | undefined;

const ITEM = "[]";

/**
 * `seen`: the schemas already walked. A recursive schema (a zod 4 getter, a
 * zod 3 z.lazy) reaches itself again, and was already found representable.
 */
function findUnrepresentable(
  schema: unknown,
  read: ReadNode,
  path: string,
  seen = new Set<unknown>(),
): Found {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  const node = read(schema);
  if ("unrepresentable" in node) return { path, type: node.unrepresentable };
  for (const { schema: inner, key } of node.children) {
    const at = key === undefined ? path : key === ITEM ? `${path}${ITEM}` : join(path, key);
    const found = findUnrepresentable(inner, read, at, seen);
    if (found) return found;
  }
  return undefined;
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

const same = (...schemas: unknown[]): SchemaNode => ({
  children: schemas.map((schema) => ({ schema })),
});
const items = (...schemas: unknown[]): SchemaNode => ({
  children: schemas.map((schema) => ({ schema, key: ITEM })),
});
const fields = (shape: Record<string, unknown>): SchemaNode => ({
  children: Object.entries(shape).map(([key, schema]) => ({ schema, key })),
});

function zod4Node(io: Io): ReadNode {
  return (schema) => {
    const def = (schema as Zod4Schema)._zod.def as unknown as Record<string, unknown> & {
      type: string;
    };
    // z.coerce.date() and friends accept what JSON carries (a string, a number).
    if (ZOD4_UNREPRESENTABLE.has(def.type) && def.coerce !== true) {
      return { unrepresentable: def.type };
    }
    switch (def.type) {
      case "object":
        return fields(def.shape as Record<string, unknown>);
      case "array":
        return items(def.element);
      case "optional":
      case "nullable":
      case "default":
      case "prefault":
      case "readonly":
      case "catch":
      case "nonoptional":
        return same(def.innerType);
      case "union":
        return same(...(def.options as unknown[]));
      case "intersection":
        return same(def.left, def.right);
      case "record":
        return items(def.valueType);
      case "tuple":
        return items(...(def.items as unknown[]));
      case "pipe":
        return same(io === "input" ? def.in : def.out);
      case "lazy":
        return same((def.getter as () => unknown)());
      default:
        return same();
    }
  };
}

function zod3Node(schema: unknown): SchemaNode {
  const def = (schema as Zod3Schema)._def as Record<string, unknown> & { typeName: string };
  const type = ZOD3_UNREPRESENTABLE[def.typeName];
  if (type !== undefined && def.coerce !== true) return { unrepresentable: type };
  switch (def.typeName) {
    case "ZodObject":
      return fields((def.shape as () => Record<string, unknown>)());
    case "ZodArray":
      return items(def.type);
    case "ZodOptional":
    case "ZodNullable":
    case "ZodDefault":
    case "ZodReadonly":
    case "ZodCatch":
      return same(def.innerType);
    case "ZodEffects":
      return same(def.schema);
    case "ZodUnion":
      return same(...(def.options as unknown[]));
    case "ZodIntersection":
      return same(def.left, def.right);
    case "ZodRecord":
      return items(def.valueType);
    case "ZodTuple":
      return items(...(def.items as unknown[]));
    case "ZodLazy":
      return same((def.getter as () => unknown)());
    default:
      return same();
  }
}
