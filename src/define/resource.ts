import type {
  ContentAnnotations,
  Icon,
  Meta,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from "../protocol/types.js";
import { type Branded, brand } from "./brand.js";
import { compiledOnce } from "./compiled-once.js";
import { type Completer, completerKeyProblems } from "./complete.js";
import { kind } from "./content-shape.js";
import type { HandlerContext } from "./context.js";
import { DefinitionError } from "./definition-error.js";
import { displayProblems, resourceAnnotationsProblems } from "./descriptor-fields.js";
import { type ResourceReturn, toReadResult } from "./resource-contents.js";
import { scopesProblem } from "./scopes.js";
import { stoppedBeforeStart } from "./stopped.js";
import { listInstances } from "./template-instances.js";
import { timeoutProblem } from "./timeout.js";
import { parseUriTemplate, type UriTemplate, uriProblem } from "./uri-template.js";

type Clean<N extends string> = N extends `${infer V}*`
  ? V
  : N extends `${infer V}:${string}`
    ? V
    : N;
type SplitNames<S extends string> = S extends `${infer A},${infer R}`
  ? Clean<A> | SplitNames<R>
  : Clean<S>;
type StripOperator<B extends string> = B extends `${"+" | "#" | "/" | "." | "?" | "&"}${infer N}`
  ? N
  : B;
/** The variable names of a URI template, as a union of string literals. */
export type TemplateVariables<T extends string> = T extends `${string}{${infer Body}}${infer Rest}`
  ? SplitNames<StripOperator<Body>> | TemplateVariables<Rest>
  : never;

export interface ReadRequest<P> {
  uri: string;
  /**
   * Each template variable, percent-decoded. An exploded `{list*}` is its
   * items joined with "," (an item's own "," and "%" escaped as %2C and %25):
   * `params.ids.split(",").map(decodeURIComponent)` gives them back.
   */
  params: P;
}

/**
 * Announces a resource's changes from wherever they are seen (a file watcher, a
 * timer, a database feed): call `updated()` (a template: `updated(uri)`) and
 * subscribers get notifications/resources/updated. Return a function that stops
 * watching: it runs when the definition is replaced (a dev reload), removed, or
 * the server closes.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a watch that starts a timer and returns nothing has a block body typed void, which `undefined` alone refuses.
export type ResourceWatch = (updated: (uri?: string) => void) => (() => void) | undefined | void;

interface ResourceCommon {
  /** Defaults to the name derived from the file path. */
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: ContentAnnotations;
  _meta?: Meta;
  /** Announces this resource's changes to its subscribers; see ResourceWatch. */
  watch?: ResourceWatch;
  /**
   * How long (ms) one run of `read` may take before it is stopped and the
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

export interface StaticResourceConfig extends ResourceCommon {
  uri: string;
  size?: number;
  read: (
    request: ReadRequest<Record<string, never>>,
    ctx: HandlerContext,
  ) => ResourceReturn | Promise<ResourceReturn>;
}

/** One current instance of a template, as resources/list shows it. */
export interface ListedResource {
  uri: string;
  /** Default: the URI. */
  name?: string;
  title?: string;
  description?: string;
  /** Default: the template's. */
  mimeType?: string;
}

export interface TemplateResourceConfig<T extends string> extends ResourceCommon {
  uriTemplate: T;
  /** The template's current instances, listed by resources/list after the fixed resources. */
  list?: () => ListedResource[] | Promise<ListedResource[]>;
  complete?: { [K in TemplateVariables<T>]?: Completer };
  read: (
    request: ReadRequest<{ [K in TemplateVariables<T>]: string }>,
    ctx: HandlerContext,
  ) => ResourceReturn | Promise<ResourceReturn>;
}

export interface ResourceDefinition extends Branded<"resource">, ResourceCommon {
  uri?: string;
  uriTemplate?: string;
  size?: number;
  complete?: Record<string, Completer | undefined>;
  read: (request: never, ctx: HandlerContext) => ResourceReturn | Promise<ResourceReturn>;
  watch?: ResourceWatch;
  list?: () => ListedResource[] | Promise<ListedResource[]>;
}

export function defineResource(config: StaticResourceConfig): ResourceDefinition;
export function defineResource<const T extends string>(
  config: TemplateResourceConfig<T>,
): ResourceDefinition;
export function defineResource(config: object): ResourceDefinition {
  const definition = brand("resource", { ...config }) as unknown as ResourceDefinition;
  // Unnamed definitions are checked once named (see defineTool).
  const { name } = config as ResourceCommon;
  if (name !== undefined) compileResource(definition, name);
  return definition;
}

export interface CompiledResource {
  readonly kind: "resource";
  readonly name: string;
  readonly definition: ResourceDefinition;
  /** Set for a fixed resource. */
  readonly uri: string | undefined;
  /** Set for a URI template. */
  readonly template: UriTemplate | undefined;
  readonly descriptor: Resource | ResourceTemplate;
  readonly complete: Readonly<Record<string, Completer | undefined>>;
  read(
    uri: string,
    params: Record<string, string>,
    ctx: HandlerContext,
  ): Promise<ReadResourceResult>;
  /** What a middleware returned in the handler's place, made a result as the handler's return is. */
  settle(value: unknown, uri: string): Promise<ReadResourceResult>;
  /** A template's current instances, when it has a `list`; checked against the template. */
  instances?(): Promise<Resource[]>;
}

/** A resource ready to serve, compiled once per name (see compiledOnce). */
export function compileResource(
  definition: ResourceDefinition,
  fallbackName: string,
): CompiledResource {
  return compiledOnce(definition, definition.name ?? fallbackName, () =>
    buildResource(definition, fallbackName),
  );
}

function buildResource(definition: ResourceDefinition, fallbackName: string): CompiledResource {
  const name = definition.name ?? fallbackName;
  const problems: string[] = [];
  if (typeof name !== "string" || name.trim() === "")
    problems.push("name must be a non-empty string");
  if (typeof definition.read !== "function") {
    problems.push("read is missing: add read: ({ uri, params }, ctx) => contents");
  }
  const hasUri = definition.uri !== undefined;
  const hasTemplate = definition.uriTemplate !== undefined;
  if (hasUri === hasTemplate) {
    problems.push('give exactly one of uri ("config://app") or uriTemplate ("users://{id}")');
  }
  let template: UriTemplate | undefined;
  if (hasUri) {
    const bad = uriProblem(definition.uri);
    if (bad) problems.push(bad);
    if (definition.complete !== undefined) {
      problems.push("complete is only for URI templates; a fixed uri has no variables to complete");
    }
    if (definition.list !== undefined) {
      problems.push("list is only for URI templates; a fixed uri is listed already");
    }
  } else if (hasTemplate) {
    try {
      template = parseUriTemplate(String(definition.uriTemplate));
      problems.push(
        ...completerKeyProblems(definition.complete, template.variables, "template variable"),
      );
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  problems.push(
    ...displayProblems(definition),
    ...resourceAnnotationsProblems(definition.annotations),
  );
  if (definition.mimeType !== undefined && typeof definition.mimeType !== "string") {
    problems.push(`mimeType must be a string ("text/markdown"), got ${kind(definition.mimeType)}`);
  }
  if (definition.list !== undefined && typeof definition.list !== "function") {
    problems.push("list must be a function: list: () => [{ uri, name? }, ...]");
  }
  const badTimeout = timeoutProblem(definition.timeoutMs);
  if (badTimeout) problems.push(`timeoutMs ${badTimeout}`);
  const badScopes = scopesProblem(definition.scopes);
  if (badScopes) problems.push(`scopes ${badScopes}`);
  if (problems.length > 0)
    throw new DefinitionError(`Resource ${JSON.stringify(name)} is invalid`, problems);

  const common = {
    name,
    ...(definition.title !== undefined && { title: definition.title }),
    ...(definition.description !== undefined && { description: definition.description }),
    ...(definition.mimeType !== undefined && { mimeType: definition.mimeType }),
    ...(definition.annotations && { annotations: definition.annotations }),
    ...(definition.icons && { icons: definition.icons }),
    ...(definition._meta && { _meta: definition._meta }),
  };
  const descriptor: Resource | ResourceTemplate = template
    ? { uriTemplate: template.template, ...common }
    : {
        uri: definition.uri as string,
        ...common,
        ...(definition.size !== undefined && { size: definition.size }),
      };
  const read = definition.read as (
    request: ReadRequest<Record<string, string>>,
    ctx: HandlerContext,
  ) => ResourceReturn | Promise<ResourceReturn>;

  return {
    kind: "resource",
    name,
    definition,
    uri: template ? undefined : definition.uri,
    template,
    descriptor,
    complete: definition.complete ?? {},
    async read(uri, params, ctx) {
      const stopped = stoppedBeforeStart(ctx);
      if (stopped) throw stopped;
      return toReadResult(await read({ uri, params }, ctx), uri, definition.mimeType);
    },
    async settle(value, uri) {
      return toReadResult(value as ResourceReturn, uri, definition.mimeType);
    },
    ...(template &&
      definition.list && {
        instances: () =>
          listInstances(
            name,
            template,
            definition.mimeType,
            definition.list as () => ListedResource[],
          ),
      }),
  };
}
