import type { JsonObject } from "../protocol/types.js";
import { formatIssues } from "./issues.js";
import { dialectOf } from "./json-schema.js";

/**
 * A schema of any library that implements Standard Schema (it validates) and
 * Standard JSON Schema (it gives its JSON Schema): ArkType, valibot through
 * `toStandardJsonSchema`, zod 4. Both specs (standardschema.dev) ask users to
 * declare the interface rather than depend on a package; this is the part
 * mcp-dir reads.
 */
export interface StandardSchemaWithJson<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaWithJson.Props<Input, Output>;
}

export declare namespace StandardSchemaWithJson {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema: {
      readonly input: (options: JsonSchemaOptions) => Record<string, unknown>;
      readonly output: (options: JsonSchemaOptions) => Record<string, unknown>;
    };
  }

  interface JsonSchemaOptions {
    readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }

  type Result<Output> =
    | { readonly value: Output; readonly issues?: undefined }
    | { readonly issues: ReadonlyArray<Issue> };

  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  }

  type InferInput<S extends StandardSchemaWithJson> = NonNullable<S["~standard"]["types"]>["input"];
  type InferOutput<S extends StandardSchemaWithJson> = NonNullable<
    S["~standard"]["types"]
  >["output"];
}

type Props = StandardSchemaWithJson.Props;

/** Has a `~standard` property: it means to be a Standard Schema, and is checked as one. */
export function isStandard(value: unknown): value is { "~standard": unknown } {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    "~standard" in value
  );
}

/** The library that made a schema, for messages ("a valibot schema"). */
export function vendorOf(value: unknown): string {
  const vendor = isStandard(value)
    ? (value["~standard"] as { vendor?: unknown } | null)?.vendor
    : undefined;
  return typeof vendor === "string" && vendor !== "" ? vendor : "unnamed library";
}

/** "a valibot", "an arktype". */
export function withArticle(vendor: string): string {
  return `${/^[aeiou]/i.test(vendor) ? "an" : "a"} ${vendor}`;
}

/** What to do when a library's schema gives no JSON Schema by itself. */
const NO_JSON_SCHEMA_HINT: Readonly<Record<string, string>> = {
  valibot:
    'wrap it with toStandardJsonSchema from "@valibot/to-json-schema" (npm install @valibot/to-json-schema): toStandardJsonSchema(v.object({ ... }))',
  arktype: "upgrade arktype to 2.1.28 or newer, which implements Standard JSON Schema",
};

/** Why a value with `~standard` cannot serve as a schema, or undefined when it can. */
export function standardProblem(value: { "~standard": unknown }): string | undefined {
  const props = value["~standard"] as Partial<Props> | null;
  const vendor = vendorOf(value);
  if (typeof props?.validate !== "function") {
    return `is ${withArticle(vendor)} value with no validator (~standard.validate): give the schema itself, which validates`;
  }
  const converter = props.jsonSchema;
  if (typeof converter?.input !== "function" || typeof converter.output !== "function") {
    const hint =
      NO_JSON_SCHEMA_HINT[vendor] ??
      `use a version of ${vendor} that implements Standard JSON Schema, or write it as a JSON Schema object`;
    return `is ${withArticle(vendor)} schema that gives no JSON Schema (it does not implement Standard JSON Schema, ~standard.jsonSchema); ${hint}`;
  }
  return undefined;
}

/**
 * What a library's converter is told, by vendor. valibot's refuses checks
 * (`v.check(...)` and its kin) unless told to leave them out; zod leaves its
 * refinements out, and both still run them when validating.
 */
const LIBRARY_OPTIONS: Readonly<Record<string, Record<string, unknown>>> = {
  valibot: { ignoreActions: ["check", "check_items", "partial_check", "raw_check"] },
};

/**
 * The schema's JSON Schema in 2020-12, MCP's default: the input type for
 * inputs, the output type for outputs. `$schema` is left out when it names
 * 2020-12, as for zod, and kept when the library wrote another dialect.
 * Throws what the library throws for a schema it cannot convert.
 */
export function standardJsonSchema(
  schema: StandardSchemaWithJson,
  io: "input" | "output",
): JsonObject {
  const props = schema["~standard"];
  const libraryOptions = LIBRARY_OPTIONS[props.vendor];
  const json = props.jsonSchema[io]({
    target: "draft-2020-12",
    ...(libraryOptions && { libraryOptions }),
  }) as JsonObject;
  if (dialectOf(json) !== "2020-12") return json;
  const { $schema: _dialect, ...rest } = json;
  return rest;
}

type Outcome = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Validates with the library's own validator (awaited when it answers with a
 * Promise); its issues read as zod's do, "path: message".
 */
export function standardValidator(
  schema: StandardSchemaWithJson,
): (value: unknown) => Outcome | Promise<Outcome> {
  const props = schema["~standard"];
  return (value) => {
    const result = props.validate(value);
    return "then" in result ? Promise.resolve(result).then(outcomeOf) : outcomeOf(result);
  };
}

function outcomeOf(result: StandardSchemaWithJson.Result<unknown>): Outcome {
  if (result.issues === undefined) return { ok: true, value: result.value };
  const issues = result.issues.map((issue) => ({
    message: issue.message,
    // A segment is a key, or { key } with more about it (valibot's). Array.from, not
    // .map: ArkType's path is an Array subclass whose .map makes a wrong array.
    path: Array.from(issue.path ?? [], (segment) =>
      typeof segment === "object" && segment !== null ? segment.key : segment,
    ),
  }));
  return { ok: false, message: formatIssues(issues) };
}
