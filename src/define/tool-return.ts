import type { CallToolResult } from "../protocol/types.js";
import type { InferShapeInput, SchemaInput } from "./schema.js";

/**
 * What a tool with an output schema returns as its structured value; anything
 * without one. `never` is how TypeScript passes an output it has not inferred
 * yet to a generic call in the handler's return (`new Promise((resolve) => ...)`):
 * that call may resolve with anything, as it could before the output is known.
 */
type OutputValue<O> = [O] extends [never]
  ? unknown
  : O extends SchemaInput
    ? InferShapeInput<O>
    : unknown;

/**
 * What a tool's handler may return, as the runtime takes it
 * (`normalizeToolResult`): without `output`, anything; with it, an object
 * matching it, or a full CallToolResult (the runtime checks that its
 * `structuredContent` matches, unless it is an error result). A value typed
 * `CallToolResult` says nothing of its `structuredContent`, and handlers
 * written so have always compiled: the types leave that check to the runtime.
 *
 * A union of plain members, not a conditional type around them: a conditional
 * on `O` stays unresolved while `O` is inferred, so an inline result's
 * `type: "text"` would be read as a string and refused.
 */
export type ToolReturn<O> = OutputValue<O> | CallToolResult;
