import type * as CfWorker from "@cfworker/json-schema";
import type { OutputUnit, Schema, SchemaDraft } from "@cfworker/json-schema";
import type { JsonObject } from "../protocol/types.js";
import { LazyPackage } from "./lazy-package.js";

/** The validator of hand-written JSON Schemas (some twenty modules): most servers write theirs in zod. */
export const jsonSchemaLibrary = new LazyPackage<typeof CfWorker>("@cfworker/json-schema");

/** What `$schema` names, by the dialects the validator speaks (2020-12 when absent, as MCP says). */
const DIALECTS: readonly [RegExp, SchemaDraft][] = [
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "7"],
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, "4"],
];

/** The dialect of a hand-written schema, or why it cannot be validated. */
export function dialectOf(schema: JsonObject): SchemaDraft | string {
  const declared = schema.$schema;
  if (declared === undefined) return "2020-12";
  const found = DIALECTS.find(
    ([pattern]) => typeof declared === "string" && pattern.test(declared),
  );
  return found
    ? found[1]
    : `declares the JSON Schema dialect ${JSON.stringify(declared)}, which mcp-dir cannot validate; use 2020-12 (leave $schema out) or draft-07 ("http://json-schema.org/draft-07/schema#")`;
}

export type JsonSchemaCheck = (
  value: unknown,
) => { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Validates against a hand-written JSON Schema (compiled once, by the caller
 * keeping the function). Failures read as zod's do: "path: what is wrong".
 */
export function jsonSchemaValidator(schema: JsonObject, draft: SchemaDraft): JsonSchemaCheck {
  const validator = new (jsonSchemaLibrary.get().Validator)(schema as Schema, draft, false);
  return (value) => {
    const result = validator.validate(value);
    return result.valid ? { ok: true, value } : { ok: false, message: describe(result.errors) };
  };
}

/** Keywords whose errors only say that something below them failed. */
const WRAPPERS = new Set([
  "properties",
  "items",
  "prefixItems",
  "additionalItems",
  "$ref",
  "allOf",
]);

function describe(errors: OutputUnit[]): string {
  const leaves = errors.filter((error) => !WRAPPERS.has(error.keyword));
  const extra = leaves.some((e) => /^(additional|unevaluated)Properties$/.test(e.keyword));
  return leaves
    .filter((error) => !(extra && error.keyword === "false"))
    .map((error) => {
      const { name, what } = explain(error);
      const path = [pathOf(error.instanceLocation), name].filter((part) => part).join(".");
      return path === "" ? what : `${path}: ${what}`;
    })
    .join("; ");
}

function pathOf(location: string): string {
  return location
    .replace(/^#\/?/, "")
    .split("/")
    .filter((part) => part !== "")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

/** What is wrong, and the property it is about when the error sits on the object above it. */
function explain(error: OutputUnit): { name?: string; what: string } {
  const text = error.error;
  switch (error.keyword) {
    case "required": {
      const name = /property "(.*)"/.exec(text)?.[1];
      return name === undefined ? { what: text } : { name, what: "is required" };
    }
    case "additionalProperties":
    case "unevaluatedProperties": {
      const name = /Property "(.*)" does not match/.exec(text)?.[1];
      return name === undefined ? { what: text } : { name, what: "is not allowed here" };
    }
    case "false":
      return { what: "is not allowed here" };
    default:
      return { what: text.replace(/\.$/, "") };
  }
}
