import type { PromptArgument } from "../protocol/types.js";
import type { PromptArgumentSpec, PromptArguments } from "./prompt.js";
import { compileObjectSchema } from "./schema.js";

/*
 * A prompt's arguments: the list clients see, from a list of specs or a
 * schema, and the numbers and booleans a schema wants, read from the strings
 * every prompt argument arrives as.
 */

/** Arguments whose schema wants a number or a boolean: on the wire they are strings. */
export type Coercions = Record<string, "number" | "integer" | "boolean">;

function coercionsOf(properties: Record<string, { type?: unknown }>): Coercions {
  const coercions: Coercions = {};
  for (const [name, { type }] of Object.entries(properties)) {
    if (type === "number" || type === "integer" || type === "boolean") coercions[name] = type;
  }
  return coercions;
}

/** Why a string holds no value of the type: what a client sent, in a prompt's terms. */
const UNREADABLE = {
  number: (text: string) => `${JSON.stringify(text)} is not a number`,
  integer: (text: string) => `${JSON.stringify(text)} is not a whole number`,
  boolean: (text: string) => `${JSON.stringify(text)} is neither "true" nor "false"`,
};

export const STRINGS_NOTE =
  "(prompt arguments are strings: this prompt reads numbers and booleans from them)";

/** "3" → 3, "true" → true; undefined when the text holds no value of the type. */
function readArgument(text: string, type: Coercions[string]): number | boolean | undefined {
  if (type === "boolean") return text === "true" ? true : text === "false" ? false : undefined;
  const number = text === "" ? Number.NaN : Number(text);
  const fits = Number.isFinite(number) && (type === "number" || Number.isInteger(number));
  return fits ? number : undefined;
}

/**
 * The arguments with numbers and booleans read from their strings; a string
 * that holds none is a problem named here, before the schema would call it a string.
 */
export function coerceArguments(
  args: Record<string, unknown>,
  coercions: Coercions,
): { args: Record<string, unknown>; problems: string[] } {
  const coerced = { ...args };
  const problems: string[] = [];
  for (const [name, type] of Object.entries(coercions)) {
    const text = args[name];
    if (typeof text !== "string") continue;
    const value = readArgument(text.trim(), type);
    if (value === undefined) problems.push(`${name}: ${UNREADABLE[type](text)}`);
    else coerced[name] = value;
  }
  return { args: coerced, problems };
}

export function argumentsFrom(spec: PromptArguments | undefined, problems: string[]) {
  if (spec === undefined) {
    return { list: [] as PromptArgument[], schema: undefined, coercions: {} as Coercions };
  }
  if (Array.isArray(spec)) {
    const list = spec.map((a: PromptArgumentSpec) => ({ ...a }));
    const seen = new Set<string>();
    for (const argument of list) {
      if (typeof argument.name !== "string" || argument.name === "") {
        problems.push("every argument needs a name");
      } else if (seen.has(argument.name)) {
        problems.push(`argument "${argument.name}" is listed twice; argument names must be unique`);
      }
      seen.add(argument.name);
    }
    return { list, schema: undefined, coercions: {} as Coercions };
  }
  const schema = compileObjectSchema(spec, "input", "arguments");
  if (typeof schema === "string") {
    problems.push(schema);
    return { list: [], schema: undefined, coercions: {} as Coercions };
  }
  const properties = (schema.jsonSchema.properties ?? {}) as Record<
    string,
    { description?: string; type?: unknown }
  >;
  const required = new Set((schema.jsonSchema.required ?? []) as string[]);
  const list = Object.entries(properties).map(([name, property]) => ({
    name,
    ...(property.description !== undefined && { description: property.description }),
    ...(required.has(name) && { required: true }),
  }));
  return { list, schema, coercions: coercionsOf(properties) };
}
