import type * as z from "zod";
import type * as z3 from "zod/v3";
import type { JsonObject } from "../protocol/types.js";
import { formatIssues, type Issue } from "./issues.js";
import { dialectOf, jsonSchemaValidator } from "./json-schema.js";
import { LazyPackage } from "./lazy-package.js";
import { isPlainObject } from "./plain-object.js";
import {
  isStandard,
  type StandardSchemaWithJson,
  standardJsonSchema,
  standardProblem,
  standardValidator,
  vendorOf,
  withArticle,
} from "./standard-schema.js";
import { unrepresentableField, zod4, zodJsonSchema } from "./zod-json-schema.js";

/** zod 3 itself, wanted only to make an object of a zod 3 shape: most servers have none. */
export const zod3 = new LazyPackage<typeof z3>("zod/v3");

export type Zod4Schema = z.core.$ZodType;
export type Zod3Schema = z3.ZodTypeAny;
export type AnySchema = Zod4Schema | Zod3Schema;
export type Zod4Shape = Record<string, Zod4Schema>;
export type Zod3Shape = Record<string, Zod3Schema>;
/** A JSON Schema object written by hand: served as is, and validated (2020-12, or the dialect its $schema names). */
export type JsonSchemaObject = {
  type: "object";
  properties?: Record<string, unknown>;
} & JsonObject;

/**
 * What `input`, `output` and elicitation schemas accept: zod (4 or 3), a
 * Standard Schema that gives its JSON Schema (ArkType, valibot through
 * `toStandardJsonSchema`), or JSON Schema.
 */
export type SchemaInput =
  | AnySchema
  | Zod4Shape
  | Zod3Shape
  | StandardSchemaWithJson
  | JsonSchemaObject;

export type InferShape<S> = S extends Zod4Schema
  ? z.output<S>
  : S extends Zod3Schema
    ? z3.output<S>
    : S extends StandardSchemaWithJson
      ? StandardSchemaWithJson.InferOutput<S>
      : S extends Zod4Shape
        ? z.output<z.ZodObject<S>>
        : S extends Zod3Shape
          ? z3.output<z3.ZodObject<S>>
          : Record<string, unknown>;

/** What a schema accepts before parsing (defaults still optional): what a handler returns for `output`. */
export type InferShapeInput<S> = S extends Zod4Schema
  ? z.input<S>
  : S extends Zod3Schema
    ? z3.input<S>
    : S extends StandardSchemaWithJson
      ? StandardSchemaWithJson.InferInput<S>
      : S extends Zod4Shape
        ? z.input<z.ZodObject<S>>
        : S extends Zod3Shape
          ? z3.input<z3.ZodObject<S>>
          : Record<string, unknown>;

export type ValidationResult = { ok: true; value: unknown } | { ok: false; message: string };

export interface CompiledSchema {
  /** Computed once, at definition time. */
  readonly jsonSchema: JsonObject;
  validate(value: unknown): ValidationResult | Promise<ValidationResult>;
}

type SafeParse = { success: true; data: unknown } | { success: false; error: { issues: Issue[] } };
type Parser = { safeParse(v: unknown): SafeParse; safeParseAsync(v: unknown): Promise<SafeParse> };

export function isZod4(value: unknown): value is Zod4Schema {
  return typeof value === "object" && value !== null && "_zod" in value;
}

export function isZod3(value: unknown): value is Zod3Schema {
  return (
    typeof value === "object" &&
    value !== null &&
    !("_zod" in value) &&
    "_def" in value &&
    typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}

const ACCEPTED =
  "use a zod object (z.object({...})), a shape of zod schemas ({ name: z.string() }), or a JSON Schema object ({ type: 'object', properties: {...} })";

/** A schema in one of the languages mcp-dir reads; a zod shape is already its z.object. */
type KnownSchema =
  | { language: "zod"; schema: AnySchema }
  | { language: "standard"; schema: StandardSchemaWithJson }
  | { language: "json"; schema: JsonSchemaObject };

/**
 * Says which language a schema or shape is written in, or what is wrong with
 * it. zod (which also implements Standard Schema) keeps its own converter.
 */
function recognise(spec: unknown): KnownSchema | string {
  if (isZod4(spec) || isZod3(spec)) return { language: "zod", schema: spec };
  if (isStandard(spec)) {
    const problem = standardProblem(spec);
    return problem ?? { language: "standard", schema: spec as StandardSchemaWithJson };
  }
  if (!isPlainObject(spec)) return `got ${describe(spec)}; ${ACCEPTED}`;
  const values = Object.values(spec);
  if (values.length > 0 && values.every(isZod4)) {
    return { language: "zod", schema: zod4.get().object(spec as Zod4Shape) };
  }
  if (values.length > 0 && values.every(isZod3)) {
    return { language: "zod", schema: zod3.get().object(spec as Zod3Shape) };
  }
  if (values.length === 0) return { language: "zod", schema: zod4.get().object({}) };
  if (spec.type === "object") return { language: "json", schema: spec as JsonSchemaObject };
  const odd = Object.entries(spec).find(([, v]) => !isZod4(v) && !isZod3(v));
  if (values.some(isZod4) && values.some(isZod3)) {
    return `mixes zod 3 and zod 4 schemas in one shape; use one zod version per schema`;
  }
  if (isStandard(odd?.[1])) {
    const vendor = withArticle(vendorOf(odd?.[1]));
    return `property "${odd?.[0]}" is ${vendor} schema, and only zod schemas make a shape; give ${vendor} object schema instead of the shape`;
  }
  return `property "${odd?.[0]}" is ${describe(odd?.[1])}, not a zod schema; ${ACCEPTED}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * The dialect zod writes is left out (2020-12 is MCP's default); a schema
 * written by hand is served exactly as written, `$schema` included.
 */
function toJsonSchema(known: KnownSchema, io: "input" | "output"): JsonObject {
  switch (known.language) {
    case "zod":
      return zodJsonSchema(known.schema, io);
    case "standard":
      return standardJsonSchema(known.schema, io);
    case "json":
      return known.schema;
  }
}

/** How to make an object of a schema that is not one, in its own language. */
function wrapHint(known: KnownSchema): string {
  switch (known.language) {
    case "zod":
      return "wrap it: z.object({ value: ... })";
    case "standard":
      return `wrap it in ${withArticle(vendorOf(known.schema))} object schema ({ value: ... })`;
    case "json":
      return 'give "type": "object"';
  }
}

function fromSafeParse(result: SafeParse): ValidationResult {
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, message: formatIssues(result.error.issues) };
}

function validatorFor(known: KnownSchema): CompiledSchema["validate"] | string {
  if (known.language === "standard") return standardValidator(known.schema);
  if (known.language === "json") {
    const dialect = dialectOf(known.schema);
    if (!isDraft(dialect)) return dialect;
    try {
      return jsonSchemaValidator(known.schema, dialect);
    } catch (error) {
      return `is not a valid JSON Schema: ${(error as Error).message}`;
    }
  }
  const parser = known.schema as unknown as Parser;
  return (value) => {
    try {
      return fromSafeParse(parser.safeParse(value));
    } catch (error) {
      // zod 4 refuses synchronous parsing of schemas with async refinements.
      if (error instanceof Error && /async|promise/i.test(error.message)) {
        return parser.safeParseAsync(value).then(fromSafeParse);
      }
      throw error;
    }
  };
}

/**
 * Turns an author's schema into its JSON Schema (once) and a validator. `what`
 * names the schema in errors ("input", "output", "elicitation schema").
 */
export function compileObjectSchema(
  spec: unknown,
  io: "input" | "output",
  what: string,
): CompiledSchema | string {
  // ArkType's schemas are functions.
  if ((typeof spec !== "object" && typeof spec !== "function") || spec === null) {
    return convert(spec, io, what);
  }
  // defineTool checks a definition, then the loader and the registry compile it
  // again: the same schema object is converted once.
  let byUse = compiled.get(spec);
  if (byUse === undefined) {
    byUse = new Map();
    compiled.set(spec, byUse);
  }
  const key = `${io}|${what}`;
  let result = byUse.get(key);
  if (result === undefined) {
    result = convert(spec, io, what);
    byUse.set(key, result);
  }
  return result;
}

const compiled = new WeakMap<object, Map<string, CompiledSchema | string>>();

function convert(spec: unknown, io: "input" | "output", what: string): CompiledSchema | string {
  const known = recognise(spec);
  if (typeof known === "string") return `${what} ${known}`;
  const unrepresentable =
    known.language === "zod" ? unrepresentableField(known.schema, io) : undefined;
  if (unrepresentable !== undefined) {
    const { path, type, instead } = unrepresentable;
    return `${what} field "${path}" is a ${type}, which JSON cannot carry, so every call would fail; use ${instead}`;
  }
  let jsonSchema: JsonObject;
  try {
    jsonSchema = toJsonSchema(known, io);
  } catch (error) {
    return `${what} cannot be converted to JSON Schema: ${(error as Error).message}`;
  }
  if (jsonSchema.type !== "object") {
    return `${what} must describe an object (MCP requires "type": "object"), got ${JSON.stringify(jsonSchema.type ?? "no type")}; ${wrapHint(known)}`;
  }
  const validate = validatorFor(known);
  if (typeof validate === "string") return `${what} ${validate}`;
  return { jsonSchema, validate };
}

function isDraft(value: string): value is "2020-12" | "2019-09" | "7" | "4" {
  return value === "2020-12" || value === "2019-09" || value === "7" || value === "4";
}
