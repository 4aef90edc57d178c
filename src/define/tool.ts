import { mirroredParamProblems } from "../protocol/mcp-param.js";
import type {
  CallToolResult,
  Icon,
  Meta,
  TaskSupport,
  Tool,
  ToolAnnotations,
} from "../protocol/types.js";
import type { ToolUiMeta } from "../protocol/ui.js";
import { type Branded, brand } from "./brand.js";
import { compiledOnce } from "./compiled-once.js";
import type { HandlerContext } from "./context.js";
import { DefinitionError } from "./definition-error.js";
import { displayProblems, toolAnnotationsProblems } from "./descriptor-fields.js";
import { isEndingRequest } from "./ends-request.js";
import { nameProblem } from "./names.js";
import {
  type CompiledSchema,
  compileObjectSchema,
  type InferShape,
  type SchemaInput,
} from "./schema.js";
import { scopesProblem } from "./scopes.js";
import { stoppedBeforeStart } from "./stopped.js";
import { standsForThrown, thrownMessage } from "./thrown.js";
import { timeoutProblem } from "./timeout.js";
import { errorResult, normalizeToolResult } from "./tool-result.js";
import type { ToolReturn } from "./tool-return.js";
import { type LEGACY_RESOURCE_URI, toolMetaWithUi, toolUiProblems } from "./tool-ui.js";

type ArgsOf<I> = I extends SchemaInput ? InferShape<I> : Record<string, never>;

export interface ToolConfig<I extends SchemaInput | undefined, O extends SchemaInput | undefined> {
  /** Defaults to the name derived from the file path. */
  name?: string;
  title?: string;
  description: string;
  icons?: Icon[];
  annotations?: ToolAnnotations;
  /**
   * `ui` is MCP Apps': the view that shows the result (`resourceUri`, by
   * convention the view named like the tool) and who may call the tool
   * (`visibility`: `["app"]` for one only its view calls).
   */
  _meta?: Meta & { ui?: ToolUiMeta; [LEGACY_RESOURCE_URI]?: string };
  /**
   * How long (ms) one run of the handler may take before it is stopped and
   * the caller gets an `isError` result; 0 for no limit. Default: the
   * server's `callTimeoutMs` (5 minutes).
   */
  timeoutMs?: number;
  /**
   * OAuth scopes a caller's access token must grant to use it (HTTP with an
   * authorization server): without them it is left out of lists, and a call
   * is answered 403 \`insufficient_scope\` naming every scope it needs. A
   * folder's \`_middleware.ts\` adds the scopes its subtree shares.
   */
  scopes?: readonly string[];
  /**
   * Whether a call may run as a task, answered at once with a task the
   * client polls while the handler runs on: "optional" (when the client
   * supports tasks), "required" (only as a task; a client that supports
   * none is refused) or "forbidden" (never; the default).
   */
  task?: TaskSupport;
  /**
   * A zod shape (`{ message: z.string() }`), a `z.object(...)`, a Standard Schema
   * that gives its JSON Schema (ArkType's `type({...})`, valibot's
   * `toStandardJsonSchema(v.object({...}))`), or a JSON Schema object.
   */
  input?: I;
  /**
   * When given, the handler returns an object matching it; parsed by it (defaults
   * applied), it becomes `structuredContent`. Or a full CallToolResult whose
   * `structuredContent` matches it, or one with `isError: true`.
   */
  output?: O;
  handler: (args: ArgsOf<I>, ctx: HandlerContext) => ToolReturn<O> | Promise<ToolReturn<O>>;
}

export interface ToolDefinition extends Branded<"tool"> {
  name?: string;
  title?: string;
  description: string;
  icons?: Icon[];
  annotations?: ToolAnnotations;
  _meta?: Meta;
  timeoutMs?: number;
  scopes?: readonly string[];
  task?: TaskSupport;
  input?: SchemaInput;
  output?: SchemaInput;
  handler: (args: never, ctx: HandlerContext) => unknown;
}

export function defineTool<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
>(config: ToolConfig<I, O>): ToolDefinition {
  const definition = brand("tool", { ...config }) as unknown as ToolDefinition;
  // Named: checked now, where the author wrote it. Unnamed: once the loader (or
  // server.add) gives it a name, so its errors say which file, export and name.
  if (config.name !== undefined) compileTool(definition, config.name);
  return definition;
}

/** A tool ready to serve: descriptor and schemas computed once. */
export interface CompiledTool {
  readonly kind: "tool";
  readonly name: string;
  readonly descriptor: Tool;
  readonly definition: ToolDefinition;
  /** Whether a call may run as a task. */
  readonly taskSupport: TaskSupport;
  call(args: unknown, ctx: HandlerContext): Promise<CallToolResult>;
  /** What a middleware returned in the handler's place, made a result as the handler's return is. */
  settle(value: unknown): Promise<CallToolResult>;
  /** What a middleware's throw becomes: the isError result a handler's throw gives. */
  fail(error: unknown): CallToolResult;
}

const TASK_SUPPORT: readonly unknown[] = ["forbidden", "optional", "required"];

const NO_ARGUMENTS: CompiledSchema = {
  jsonSchema: { type: "object", properties: {} },
  validate: (value) => ({ ok: true, value }),
};

/** A tool ready to serve, compiled once per name (see compiledOnce). */
export function compileTool(definition: ToolDefinition, fallbackName: string): CompiledTool {
  return compiledOnce(definition, definition.name ?? fallbackName, () =>
    buildTool(definition, fallbackName),
  );
}

function buildTool(definition: ToolDefinition, fallbackName: string): CompiledTool {
  const name = definition.name ?? fallbackName;
  const problems: string[] = [];
  const badName = nameProblem(name, "Tool");
  if (badName) problems.push(badName);
  if (typeof definition.handler !== "function") {
    problems.push("handler is missing: add handler: (args, ctx) => result");
  }
  if (typeof definition.description !== "string" || definition.description.trim() === "") {
    problems.push(
      "description is missing: clients show it to the model, so say what the tool does",
    );
  }
  problems.push(
    ...displayProblems({ title: definition.title, icons: definition.icons }),
    ...toolAnnotationsProblems(definition.annotations),
  );
  const badTimeout = timeoutProblem(definition.timeoutMs);
  if (badTimeout) problems.push(`timeoutMs ${badTimeout}`);
  const badScopes = scopesProblem(definition.scopes);
  if (badScopes) problems.push(`scopes ${badScopes}`);
  const taskSupport = definition.task ?? "forbidden";
  if (!TASK_SUPPORT.includes(taskSupport)) {
    problems.push(
      `task must be "optional", "required" or "forbidden" (the default), not ${JSON.stringify(taskSupport)}`,
    );
  }
  problems.push(...toolUiProblems(definition._meta));
  const input =
    definition.input === undefined
      ? NO_ARGUMENTS
      : compileObjectSchema(definition.input, "input", "input");
  if (typeof input === "string") problems.push(input);
  // 2026-07-28 mirrors marked arguments into HTTP headers: a mark it forbids is the author's to fix.
  else problems.push(...mirroredParamProblems(input.jsonSchema));
  const output =
    definition.output === undefined
      ? undefined
      : compileObjectSchema(definition.output, "output", "output");
  if (typeof output === "string") problems.push(output);
  if (problems.length > 0 || typeof input === "string" || typeof output === "string") {
    throw new DefinitionError(`Tool ${JSON.stringify(name)} is invalid`, problems);
  }

  const descriptor: Tool = {
    name,
    ...(definition.title !== undefined && { title: definition.title }),
    description: definition.description,
    inputSchema: input.jsonSchema,
    ...(output && { outputSchema: output.jsonSchema }),
    ...(definition.annotations && { annotations: definition.annotations }),
    ...(definition.icons && { icons: definition.icons }),
    ...(taskSupport !== "forbidden" && { execution: { taskSupport } }),
    ...(definition._meta && { _meta: toolMetaWithUi(definition._meta) }),
  };
  const handler = definition.handler as (args: unknown, ctx: HandlerContext) => unknown;
  const fail = (error: unknown): CallToolResult => {
    if (isEndingRequest(error)) throw error;
    return standsForThrown(errorResult(thrownMessage(error)), error);
  };

  return {
    kind: "tool",
    name,
    descriptor,
    definition,
    taskSupport,
    async call(args, ctx) {
      const checked = await input.validate(args ?? {});
      if (!checked.ok) {
        return errorResult(`Invalid arguments for tool "${name}": ${checked.message}`);
      }
      const stopped = stoppedBeforeStart(ctx);
      if (stopped) throw stopped;
      try {
        return await normalizeToolResult(await handler(checked.value, ctx), output, name);
      } catch (error) {
        return fail(error);
      }
    },
    async settle(value) {
      try {
        return await normalizeToolResult(value, output, name);
      } catch (error) {
        return fail(error);
      }
    },
    fail,
  };
}
