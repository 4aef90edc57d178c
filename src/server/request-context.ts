import { randomUUID } from "node:crypto";
import type { AuthInfo } from "../define/auth.js";
import type {
  AskOptions,
  ClientInfo,
  ElicitOutcome,
  ElicitRequest,
  ElicitUrlOutcome,
  ElicitUrlRequest,
  HandlerContext,
  HandlerLogger,
  RoundState,
  SessionInfo,
} from "../define/context.js";
import { checkElicitUrl } from "../define/elicit-url.js";
import { endsRequest } from "../define/ends-request.js";
import type { DefinitionInfo } from "../define/middleware.js";
import type { InferShape, SchemaInput } from "../define/schema.js";
import { compileObjectSchema } from "../define/schema.js";
import { JsonRpcError, type JsonRpcId } from "../jsonrpc/index.js";
import { McpErrorCode } from "../protocol/errors.js";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitAction,
  LoggingLevel,
  Root,
} from "../protocol/types.js";
import { LOGGING_LEVELS } from "../protocol/types.js";
import { supports } from "../protocol/versions.js";
import { type ClientNeed, missingCapability } from "./client-capabilities.js";
import type { Engine } from "./engine.js";
import type { RequestEnv } from "./env.js";
import type { InputMethod } from "./input-rounds/input-round.js";
import type { Params } from "./params.js";

const DEFAULT_MAX_TOKENS = 1024;

/**
 * What the method handlers work with, and the `ctx` author handlers receive:
 * the engine and one request's env. Who asked, in which protocol revision and
 * with which capabilities come from the env, never from global state, so a
 * stateless request carries its own.
 */
export class RequestContext implements HandlerContext {
  private logger: HandlerLogger | undefined;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private ownRoundState: RoundState | undefined;
  private ownLocals: Record<string, unknown> | undefined;
  /** What a middleware chain lends the request: the definition and the arguments (see MiddlewareContext). */
  declare definition?: DefinitionInfo;
  declare args?: Record<string, unknown>;

  constructor(
    readonly engine: Engine,
    readonly env: RequestEnv,
  ) {}

  get requestId(): JsonRpcId {
    return this.env.requestId;
  }

  get protocolVersion(): string {
    return this.env.protocolVersion;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.env.clientCapabilities;
  }

  get client(): ClientInfo {
    return { info: this.env.clientInfo, capabilities: this.env.clientCapabilities };
  }

  get session(): SessionInfo | undefined {
    return this.env.session;
  }

  get auth(): AuthInfo | undefined {
    return this.env.auth;
  }

  get signal(): AbortSignal {
    return this.env.inFlight.signal;
  }

  resourceUpdated(uri: string): void {
    this.engine.resourceUpdated(uri);
  }

  get roundState(): RoundState {
    if (this.env.inputRound) return this.env.inputRound.roundState;
    this.ownRoundState ??= {};
    return this.ownRoundState;
  }

  get locals(): Record<string, unknown> {
    this.ownLocals ??= {};
    return this.ownLocals;
  }

  get cancelled(): boolean {
    return this.env.inFlight.cancelled;
  }

  /** Why `signal` aborted, once it has, without making the signal (middleware chains ask). */
  get stopped(): Error | undefined {
    return this.env.inFlight.stopped;
  }

  get log(): HandlerLogger {
    this.logger ??= Object.fromEntries(
      LOGGING_LEVELS.map((level) => [
        level,
        (data: unknown, logger?: string) => this.sendLog(level, data, logger),
      ]),
    ) as HandlerLogger;
    return this.logger;
  }

  /**
   * Cancelled or answered: nothing more is sent for the request (a 2025
   * session would relate it to a request its client has done with; 2026-07-28
   * has no stream left to carry it). A task's run has its own, live while it runs.
   */
  private get requestEnded(): boolean {
    const { inFlight } = this.env;
    return inFlight.cancelled || inFlight.finished;
  }

  private sendLog(level: LoggingLevel, data: unknown, logger?: string): void {
    if (this.requestEnded || !this.env.wantsLog(level)) return;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    this.env.channel.notify("notifications/message", params);
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const { progressToken } = this.env;
    if (progressToken === undefined || this.requestEnded) return;
    if (!(progress > this.lastProgress)) {
      this.engine.warn(
        `progress must increase with each report: ${progress} came after ${this.lastProgress}; it was not sent`,
      );
      return;
    }
    this.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && supports(this.protocolVersion, "progressMessage")) {
      params.message = message;
    }
    this.env.channel.notify("notifications/progress", params);
  }

  private requireCapability(need: ClientNeed, what: string): void {
    const missing = missingCapability(this.clientCapabilities, need);
    if (missing === undefined) return;
    const message = `The client did not declare the "${missing.name}" capability, so the server cannot ${what}. Check ctx.client.capabilities.${missing.name} before calling.`;
    if (this.env.era === "stateful") throw new Error(message);
    // 2026-07-28 answers a request that needs an undeclared capability with -32021,
    // unless the handler catches this and carries on without it.
    throw endsRequest(
      new JsonRpcError(McpErrorCode.MissingRequiredClientCapability, message, {
        requiredCapabilities: missing.required,
      }),
    );
  }

  private cannotAsk(what: string): Error {
    return new Error(
      `${what}: on protocol ${this.protocolVersion} only tools/call, prompts/get and resources/read may ask the client for input`,
    );
  }

  /** A 2025 session sends the request; a 2026-07-28 request asks through its result. */
  private ask(
    method: InputMethod,
    params: Record<string, unknown>,
    options: AskOptions | undefined,
  ): Promise<unknown> {
    const { channel, inputRound } = this.env;
    if (channel.request) return channel.request(method, params, this.signal, options?.key);
    if (inputRound) return inputRound.ask(method, params, options?.key);
    return Promise.reject(this.cannotAsk(`${method} cannot be asked for here`));
  }

  elicit<S extends SchemaInput>(
    request: ElicitRequest<S>,
    options?: AskOptions,
  ): Promise<ElicitOutcome<InferShape<S>>>;
  elicit(request: ElicitUrlRequest, options?: AskOptions): Promise<ElicitUrlOutcome>;
  elicit(
    request: ElicitRequest<SchemaInput> | ElicitUrlRequest,
    options?: AskOptions,
  ): Promise<ElicitOutcome<unknown> | ElicitUrlOutcome> {
    return "url" in request && request.url !== undefined
      ? this.elicitUrl(request, options)
      : this.elicitForm(request as ElicitRequest<SchemaInput>, options);
  }

  private async elicitUrl(
    request: ElicitUrlRequest,
    options?: AskOptions,
  ): Promise<ElicitUrlOutcome> {
    const { params, elicitationId } = this.urlRequest(request);
    const result = (await this.ask("elicitation/create", params, options)) as { action?: unknown };
    const action = elicitAction(result.action);
    const { session } = this.env;
    const complete = () => {
      if (session && !session.ended) {
        session.notify("notifications/elicitation/complete", { elicitationId });
      }
    };
    return { action, elicitationId, complete };
  }

  urlElicitationRequired(...requests: ElicitUrlRequest[]): Error {
    const asked = requests.map((request) => this.urlRequest(request));
    const { inputRound, era } = this.env;
    if (era === "stateless" && !inputRound) {
      return this.cannotAsk("urlElicitationRequired");
    }
    if (inputRound) {
      // 2026-07-28 has no -32042: the pages are asked for in an input_required round.
      const ends = asked.map(({ params, elicitationId }) =>
        inputRound.demand("elicitation/create", params, `url-${elicitationId}`),
      );
      return ends[0] ?? new Error("urlElicitationRequired needs at least one URL request");
    }
    return endsRequest(
      new JsonRpcError(
        McpErrorCode.UrlElicitationRequired,
        `The user must visit ${asked.length === 1 ? "a page" : `${asked.length} pages`} before this request can go on`,
        { elicitations: asked.map(({ params }) => params) },
      ),
    );
  }

  /** The params of a URL elicitation: checked, with the id 2025 clients are sent. */
  private urlRequest(request: ElicitUrlRequest): { params: Params; elicitationId: string } {
    if (!supports(this.protocolVersion, "urlElicitation")) {
      throw new Error(
        `URL elicitation needs protocol 2025-11-25 or newer; this client negotiated ${this.protocolVersion}`,
      );
    }
    this.requireCapability("elicitation.url", "send the user to a URL");
    const checked = checkElicitUrl(request.url);
    if ("problem" in checked) throw new Error(`ctx.elicit: ${checked.problem}`);
    const elicitationId = request.elicitationId ?? randomUUID();
    const params: Params = { mode: "url", message: request.message, url: checked.href };
    // 2026-07-28 has no elicitationId: the request's key and requestState say which it is.
    if (this.env.era === "stateful") params.elicitationId = elicitationId;
    return { params, elicitationId };
  }

  private async elicitForm<S extends SchemaInput>(
    request: ElicitRequest<S>,
    options?: AskOptions,
  ): Promise<ElicitOutcome<InferShape<S>>> {
    if (!supports(this.protocolVersion, "elicitation")) {
      throw new Error(
        `Elicitation needs protocol 2025-06-18 or newer; this client negotiated ${this.protocolVersion}`,
      );
    }
    this.requireCapability("elicitation.form", "ask the user for input");
    const schema = compileObjectSchema(request.schema, "input", "elicitation schema");
    if (typeof schema === "string") throw new Error(schema);
    const result = (await this.ask(
      "elicitation/create",
      { message: request.message, requestedSchema: schema.jsonSchema },
      options,
    )) as { action?: unknown; content?: unknown };
    const action = elicitAction(result.action);
    if (action !== "accept") return { action } as ElicitOutcome<InferShape<S>>;
    const checked = await schema.validate(result.content ?? {});
    if (!checked.ok) {
      throw new Error(
        `The client's answer does not match the elicitation schema: ${checked.message}`,
      );
    }
    return { action: "accept", content: checked.value } as ElicitOutcome<InferShape<S>>;
  }

  async sample(
    request: CreateMessageParams | string,
    options?: AskOptions,
  ): Promise<CreateMessageResult> {
    this.requireCapability("sampling", "ask the client's model for a completion");
    const params: CreateMessageParams =
      typeof request === "string"
        ? {
            messages: [{ role: "user", content: { type: "text", text: request } }],
            maxTokens: DEFAULT_MAX_TOKENS,
          }
        : request;
    return (await this.ask(
      "sampling/createMessage",
      { ...params },
      options,
    )) as CreateMessageResult;
  }

  async roots(options?: AskOptions): Promise<Root[]> {
    this.requireCapability("roots", "list the client's roots");
    const result = (await this.ask("roots/list", {}, options)) as { roots?: unknown };
    if (!Array.isArray(result.roots)) {
      throw new Error("The client's answer to roots/list has no roots list");
    }
    return result.roots as Root[];
  }
}

/** The action of a client's answer to an elicitation, or an error saying it has none. */
function elicitAction(action: unknown): ElicitAction {
  if (action === "accept" || action === "decline" || action === "cancel") return action;
  throw new Error(
    `The client's answer to the elicitation has action ${JSON.stringify(action)}; it must be "accept", "decline" or "cancel"`,
  );
}
