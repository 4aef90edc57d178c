import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  JsonObject,
  Root,
} from "../protocol/types.js";

/** What `ctx.elicit` sends: a form (`requestedSchema`) or a page to open (`mode: "url"`). */
export interface ElicitationRequest {
  mode?: "form" | "url";
  message: string;
  requestedSchema?: JsonObject;
  url?: string;
  elicitationId?: string;
}

/**
 * How the client answers one kind of request a handler makes: a function of
 * what was asked, one answer for every ask, or a list of answers given in
 * order (an ask past its end is an error).
 */
export type Responder<Asked, Answer> =
  | ((asked: Asked) => Answer | Promise<Answer>)
  | Answer
  | readonly Answer[];

export interface Responders {
  /** Answers `ctx.elicit` (forms and URL mode); its presence declares the elicitation capability. */
  elicitation?: Responder<ElicitationRequest, ElicitResult<Record<string, unknown>>>;
  /** Answers `ctx.sample`; declares the sampling capability. */
  sampling?: Responder<CreateMessageParams, CreateMessageResult>;
  /** Answers `ctx.roots()`; declares the roots capability. */
  roots?: Responder<Record<string, unknown>, { roots: Root[] }>;
}

const KIND_OF: Readonly<Record<string, keyof Responders>> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/** What each kind of answer looks like, for a responder that gave none. */
const EXAMPLE_OF: Readonly<Record<keyof Responders, string>> = {
  elicitation: '{ action: "accept", content: { ... } }',
  sampling: '{ role: "assistant", content: { type: "text", text: "..." }, model: "test-model" }',
  roots: '{ roots: [{ uri: "file:///..." }] }',
};

/** What an ask of `method` that no responder answers lacks, and how to give it. */
export function missingResponder(method: string): string {
  const kind = KIND_OF[method];
  if (kind === undefined) return `${method}, which this client cannot answer`;
  return `${method}, and this client has no ${kind} responder; give the client one (the ${kind} option of createTestClient), such as ${kind}: ${EXAMPLE_OF[kind]}, or a function of what is asked`;
}

/** `given`, once known to be an answer: an object (nothing else can be sent as one). */
function anAnswer(kind: keyof Responders, given: unknown): Record<string, unknown> {
  if (typeof given === "object" && given !== null && !Array.isArray(given)) {
    return given as Record<string, unknown>;
  }
  const what = Array.isArray(given) ? "a list" : given === null ? "null" : String(given);
  throw new Error(
    `The client's ${kind} responder gave ${what}, not an answer; return one, such as ${EXAMPLE_OF[kind]}`,
  );
}

/** The capabilities the given responders answer for, under those given explicitly. */
export function capabilitiesFor(
  responders: Responders,
  given: ClientCapabilities = {},
): ClientCapabilities {
  return {
    ...(responders.elicitation !== undefined && { elicitation: { form: {}, url: {} } }),
    ...(responders.sampling !== undefined && { sampling: {} }),
    ...(responders.roots !== undefined && { roots: {} }),
    ...given,
  };
}

/** Answers the requests handlers make, by method, from the responders given. */
export class Answers {
  /** How many answers of each list were given. */
  private readonly used = new Map<keyof Responders, number>();

  constructor(private readonly responders: Responders) {}

  /** Whether a request of `method` has a responder. */
  has(method: string): boolean {
    const kind = KIND_OF[method];
    return kind !== undefined && this.responders[kind] !== undefined;
  }

  /** The answer to one request; rejects when there is none to give. */
  async answer(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const kind = KIND_OF[method];
    const responder = kind === undefined ? undefined : this.responders[kind];
    if (kind === undefined || responder === undefined) {
      throw new Error(`This client has no answer for ${method}`);
    }
    if (typeof responder === "function") {
      return anAnswer(kind, await (responder as (asked: unknown) => unknown)(params));
    }
    if (!Array.isArray(responder)) return anAnswer(kind, responder);
    const index = this.used.get(kind) ?? 0;
    if (index >= responder.length) {
      throw new Error(
        `The client's ${kind} answers ran out: ${responder.length} were given, and a handler asked for another; give one more, or a function`,
      );
    }
    this.used.set(kind, index + 1);
    return anAnswer(kind, responder[index]);
  }
}
