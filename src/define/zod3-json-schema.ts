import type * as z3 from "zod/v3";
import type * as Zod3ToJsonSchema from "zod-to-json-schema";
import type { JsonObject } from "../protocol/types.js";
import { LazyPackage } from "./lazy-package.js";

type Zod3Schema = z3.ZodTypeAny;
type Io = "input" | "output";
type Options = NonNullable<Parameters<typeof Zod3ToJsonSchema.zodToJsonSchema>[1]> & object;
type Override = NonNullable<Options["override"]>;
type Seen = NonNullable<Parameters<Override>[2]>;

/** zod-to-json-schema (and zod 3 with it, some fifty modules): most servers have no zod 3 schema. */
export const zod3Converter = new LazyPackage<typeof Zod3ToJsonSchema>("zod-to-json-schema");

/** Where zod 4 keeps a recursive schema, and so where this keeps a zod 3 one. */
const DEFS = "$defs";

/**
 * A zod 3 schema's JSON Schema as zod 4 writes its own: a schema used again
 * is written again, and only recursion (z3.lazy) is a `$ref`: to "#" for the
 * whole schema, else to `#/$defs/__schema<n>`, where it is written once.
 * zod-to-json-schema writes `{}` for recursion (and says so with
 * console.warn) unless every schema used twice is a `$ref` to wherever it
 * was first: so a first pass finds the recursive schemas, and only a schema
 * with any is converted again, with them as definitions.
 */
export function zod3JsonSchema(schema: Zod3Schema, io: Io): JsonObject {
  const { zodToJsonSchema, ignoreOverride } = zod3Converter.get();
  const options: Options = {
    $refStrategy: "none",
    // "strict": false only for .strict() objects; a stripping object says true.
    removeAdditionalStrategy: io === "input" ? "strict" : "passthrough",
  };
  // Each recursive schema, by its definition, and where it was first.
  const recursive = new Map<Seen["def"], Seen["path"]>();
  const found: Override = (_def, refs, seen, forced) => {
    if (seen === undefined || forced || !encloses(seen.path, refs.currentPath)) {
      return ignoreOverride;
    }
    if (!recursive.has(seen.def)) recursive.set(seen.def, seen.path);
    return {};
  };
  const first = zodToJsonSchema(schema, { ...options, override: found }) as JsonObject;
  if (recursive.size === 0) return first;

  const refs = new Map<Seen["def"], string>();
  const definitions: Record<string, Zod3Schema> = {};
  for (const [def, path] of recursive) {
    if (path.length === 1) {
      refs.set(def, "#");
    } else {
      const name = `__schema${Object.keys(definitions).length}`;
      refs.set(def, `#/${DEFS}/${name}`);
      // zod-to-json-schema reads nothing of a definition but its _def.
      definitions[name] = { _def: def } as unknown as Zod3Schema;
    }
  }
  const referenced: Override = (def, _refs, seen, forced) => {
    const ref = refs.get(def);
    // Forced: a definition written in $defs, or the whole schema, the first time.
    return ref === undefined || forced || seen === undefined ? ignoreOverride : { $ref: ref };
  };
  // Recursion of the whole schema alone ("#") needs no $defs, which zod 4 leaves out then.
  const named = Object.keys(definitions).length > 0;
  return zodToJsonSchema(schema, {
    ...options,
    ...(named && { definitionPath: DEFS, definitions }),
    override: referenced,
  }) as JsonObject;
}

/** Whether the schema at `outer` holds the one at `inner`: reaching it again there is recursion. */
function encloses(outer: readonly string[], inner: readonly string[]): boolean {
  return outer.length < inner.length && outer.every((key, at) => inner[at] === key);
}
