import { ErrorCode, JsonRpcError } from "../jsonrpc/index.js";
import { isContentBlock, text } from "../protocol/content.js";
import type {
  ContentBlock,
  GetPromptResult,
  Icon,
  Meta,
  Prompt,
  PromptMessage,
} from "../protocol/types.js";
import { type Branded, brand } from "./brand.js";
import { compiledOnce } from "./compiled-once.js";
import { type Completer, completerKeyProblems } from "./complete.js";
import { contentProblem, kind } from "./content-shape.js";
import type { HandlerContext } from "./context.js";
import { DefinitionError } from "./definition-error.js";
import { displayProblems } from "./descriptor-fields.js";
import { nameProblem } from "./names.js";
import { argumentsFrom, coerceArguments, STRINGS_NOTE } from "./prompt-arguments.js";
import { fillContent } from "./prompt-placeholders.js";
import type { CompiledSchema, InferShape, Zod3Shape, Zod4Shape } from "./schema.js";
import { scopesProblem } from "./scopes.js";
import { stoppedBeforeStart } from "./stopped.js";
import { timeoutProblem } from "./timeout.js";

export interface PromptArgumentSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** A list of arguments, or a zod shape of strings (descriptions from `.describe()`). */
export type PromptArguments = readonly PromptArgumentSpec[] | Zod4Shape | Zod3Shape;

type ListArgs<A extends readonly PromptArgumentSpec[]> = {
  [P in A[number] as P["required"] extends true ? P["name"] : never]: string;
} & { [P in A[number] as P["required"] extends true ? never : P["name"]]?: string };

export type PromptArgs<A> = A extends readonly PromptArgumentSpec[]
  ? ListArgs<A>
  : A extends Zod4Shape | Zod3Shape
    ? InferShape<A>
    : Record<string, never>;

type ArgName<A> = A extends readonly PromptArgumentSpec[] ? A[number]["name"] : keyof A & string;

export interface StaticMessage {
  role: "user" | "assistant";
  /** Text may hold `{{argument}}` placeholders. */
  content: string | ContentBlock;
}

/** What `get` may return; a message's content may be a plain string, as in `messages`. */
export type PromptReturn =
  | string
  | ContentBlock
  | PromptMessage
  | StaticMessage
  | (PromptMessage | StaticMessage)[]
  | GetPromptResult
  | (Omit<GetPromptResult, "messages"> & { messages: (PromptMessage | StaticMessage)[] });

export interface PromptConfig<A extends PromptArguments | undefined> {
  name?: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: Meta;
  arguments?: A;
  complete?: { [K in ArgName<A>]?: Completer };
  /** Builds the messages; or give `messages` instead. */
  get?: (args: PromptArgs<A>, ctx: HandlerContext) => PromptReturn | Promise<PromptReturn>;
  /** Fixed messages with `{{argument}}` placeholders in their text. */
  messages?: readonly StaticMessage[];
  /**
   * How long (ms) one run of `get` may take before it is stopped and the
   * client gets an error; 0 for no limit. Default: the server's `callTimeoutMs`.
   */
  timeoutMs?: number;
  /**
   * OAuth scopes a caller's access token must grant to use it (HTTP with an
   * authorization server): without them it is left out of lists, and a call
   * is answered 403 \`insufficient_scope\` naming every scope it needs. A
   * folder's \`_middleware.ts\` adds the scopes its subtree shares.
   */
  scopes?: readonly string[];
}

export interface PromptDefinition extends Branded<"prompt"> {
  name?: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: Meta;
  arguments?: PromptArguments;
  complete?: Record<string, Completer | undefined>;
  get?: (args: never, ctx: HandlerContext) => PromptReturn | Promise<PromptReturn>;
  messages?: readonly StaticMessage[];
  timeoutMs?: number;
  scopes?: readonly string[];
}

export function definePrompt<const A extends PromptArguments | undefined = undefined>(
  config: PromptConfig<A>,
): PromptDefinition {
  const definition = brand("prompt", { ...config }) as unknown as PromptDefinition;
  // Unnamed definitions are checked once named (see defineTool).
  if (config.name !== undefined) compilePrompt(definition, config.name);
  return definition;
}

export interface CompiledPrompt {
  readonly kind: "prompt";
  readonly name: string;
  readonly descriptor: Prompt;
  readonly definition: PromptDefinition;
  readonly complete: Readonly<Record<string, Completer | undefined>>;
  get(args: Record<string, string> | undefined, ctx: HandlerContext): Promise<GetPromptResult>;
  /** What a middleware returned in the handler's place, made a result as the handler's return is. */
  settle(value: unknown): Promise<GetPromptResult>;
}

const ROLE_PROBLEM =
  'MCP prompts have only "user" and "assistant" roles; put system-level guidance in the server\'s instructions or in a user message';

function toMessage(value: unknown, promptName: string): PromptMessage {
  const message = value as { role?: unknown; content?: unknown };
  if (message.role !== "user" && message.role !== "assistant") {
    throw new JsonRpcError(
      ErrorCode.InternalError,
      `Prompt "${promptName}" returned a message with role ${JSON.stringify(message.role)}: ${ROLE_PROBLEM}`,
    );
  }
  const content = typeof message.content === "string" ? text(message.content) : message.content;
  if (!isContentBlock(content)) {
    throw new JsonRpcError(
      ErrorCode.InternalError,
      `Prompt "${promptName}" returned a message whose content is not a content block`,
    );
  }
  const problem = contentProblem(content, "message content");
  if (problem) {
    throw new JsonRpcError(
      ErrorCode.InternalError,
      `Prompt "${promptName}" returned invalid content: ${problem}`,
    );
  }
  return { role: message.role, content };
}

function toPromptResult(value: PromptReturn, name: string, description?: string): GetPromptResult {
  const withDescription = (messages: PromptMessage[]): GetPromptResult =>
    description === undefined ? { messages } : { description, messages };
  if (typeof value === "string") return withDescription([{ role: "user", content: text(value) }]);
  if (Array.isArray(value)) return withDescription(value.map((m) => toMessage(m, name)));
  if (isContentBlock(value)) return withDescription([{ role: "user", content: value }]);
  if (typeof value !== "object" || value === null) {
    throw new JsonRpcError(
      ErrorCode.InternalError,
      `Prompt "${name}" returned ${value == null ? String(value) : `a ${typeof value}`}; return a string, a message, an array of messages, or { messages }`,
    );
  }
  if ("messages" in value && Array.isArray(value.messages)) {
    const messages = value.messages.map((m) => toMessage(m, name));
    const desc = value.description ?? description;
    return { ...value, ...(desc !== undefined && { description: desc }), messages };
  }
  return withDescription([toMessage(value, name)]);
}

const MESSAGES_EXAMPLE = 'messages: [{ role: "user", content: "..." }]';

/** What is wrong with a prompt's static `messages`, whatever a JavaScript author gave. */
function messagesProblems(messages: unknown): string[] {
  if (messages === undefined) return [];
  if (typeof messages === "function") {
    return [
      `messages is a function: to build the messages when the prompt is got, name it get: (args, ctx) => messages; or give ${MESSAGES_EXAMPLE}`,
    ];
  }
  if (!Array.isArray(messages)) {
    return [`messages must be an array of messages (${MESSAGES_EXAMPLE}), got ${kind(messages)}`];
  }
  return messages.flatMap((message: unknown, index) => {
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      return [
        `messages[${index}] must be a message ({ role: "user", content: "..." }), got ${kind(message)}`,
      ];
    }
    const { role, content } = message as { role?: unknown; content?: unknown };
    const problems =
      role === "user" || role === "assistant"
        ? []
        : [`message role ${JSON.stringify(role)} is not allowed: ${ROLE_PROBLEM}`];
    if (typeof content !== "string" && !isContentBlock(content)) {
      problems.push(
        `messages[${index}].content must be a string or a content block ({ type: "text", text: "..." }), got ${kind(content)}`,
      );
    }
    return problems;
  });
}

/** A prompt ready to serve, compiled once per name (see compiledOnce). */
export function compilePrompt(definition: PromptDefinition, fallbackName: string): CompiledPrompt {
  return compiledOnce(definition, definition.name ?? fallbackName, () =>
    buildPrompt(definition, fallbackName),
  );
}

function buildPrompt(definition: PromptDefinition, fallbackName: string): CompiledPrompt {
  const name = definition.name ?? fallbackName;
  const problems: string[] = [];
  const badName = nameProblem(name, "Prompt");
  if (badName) problems.push(badName);
  const { list, schema, coercions } = argumentsFrom(definition.arguments, problems);
  const hasGet = typeof definition.get === "function";
  if (hasGet === (definition.messages !== undefined)) {
    problems.push("give exactly one of get: (args, ctx) => messages, or messages: [...]");
  }
  problems.push(...messagesProblems(definition.messages), ...displayProblems(definition));
  problems.push(
    ...completerKeyProblems(
      definition.complete,
      list.map((a) => a.name),
      "argument",
    ),
  );
  const badTimeout = timeoutProblem(definition.timeoutMs);
  if (badTimeout) problems.push(`timeoutMs ${badTimeout}`);
  const badScopes = scopesProblem(definition.scopes);
  if (badScopes) problems.push(`scopes ${badScopes}`);
  if (problems.length > 0)
    throw new DefinitionError(`Prompt ${JSON.stringify(name)} is invalid`, problems);

  const descriptor: Prompt = {
    name,
    ...(definition.title !== undefined && { title: definition.title }),
    ...(definition.description !== undefined && { description: definition.description }),
    ...(list.length > 0 && { arguments: list }),
    ...(definition.icons && { icons: definition.icons }),
    ...(definition._meta && { _meta: definition._meta }),
  };
  const requiredNames = list.filter((a) => a.required).map((a) => a.name);
  const declared = new Set(list.map((a) => a.name));

  return {
    kind: "prompt",
    name,
    descriptor,
    definition,
    complete: definition.complete ?? {},
    async get(rawArgs, ctx) {
      const args = rawArgs ?? {};
      const missing = requiredNames.filter((n) => args[n] === undefined);
      if (missing.length > 0) {
        throw new JsonRpcError(
          ErrorCode.InvalidParams,
          `Missing required argument${missing.length > 1 ? "s" : ""} for prompt "${name}": ${missing.join(", ")}`,
        );
      }
      let values: unknown = args;
      if (schema) {
        const coerced = coerceArguments(args, coercions);
        if (coerced.problems.length > 0) {
          throw new JsonRpcError(
            ErrorCode.InvalidParams,
            `Invalid arguments for prompt "${name}": ${coerced.problems.join("; ")} ${STRINGS_NOTE}`,
          );
        }
        const checked = await (schema as CompiledSchema).validate(coerced.args);
        if (!checked.ok) {
          throw new JsonRpcError(
            ErrorCode.InvalidParams,
            `Invalid arguments for prompt "${name}": ${checked.message}`,
          );
        }
        values = checked.value;
      }
      const stopped = stoppedBeforeStart(ctx);
      if (stopped) throw stopped;
      if (definition.messages) {
        const messages = definition.messages.map((m) => ({
          role: m.role,
          content: fillContent(m.content, values as Record<string, unknown>, declared),
        }));
        return toPromptResult(messages, name, definition.description);
      }
      const get = definition.get as (a: unknown, c: HandlerContext) => Promise<PromptReturn>;
      return toPromptResult(await get(values, ctx), name, definition.description);
    },
    async settle(value) {
      return toPromptResult(value as PromptReturn, name, definition.description);
    },
  };
}
