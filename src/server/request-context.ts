import type {
  AskOptions,
  ClientInfo,
  ElicitOutcome,
  ElicitRequest,
  HandlerContext,
  HandlerLogger,
  RoundState,
  SessionInfo,
} from "../define/context.js";
import { endsRequest } from "../define/ends-request.js";
import type { InferShape, SchemaInput } from "../define/schema.js";
import { compileObjectSchema } from "../define/schema.js";
import { JsonRpcError, type JsonRpcId } from "../jsonrpc/index.js";
import { McpErrorCode } from "../protocol/errors.js";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  LoggingLevel,
  Root,
} from "../protocol/types.js";
import { LOGGING_LEVELS } from "../protocol/types.js";
import { supports } from "../protocol/versions.js";
import type { Engine } from "./engine.js";
import type { RequestEnv } from "./env.js";
import type { InputMethod } from "./input-rounds/input-round.js";

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

  get signal(): AbortSignal {
    return this.env.inFlight.signal;
  }

  get roundState(): RoundState {
    if (this.env.inputRound) return this.env.inputRound.roundState;
    this.ownRoundState ??= {};
    return this.ownRoundState;
  }

  get cancelled(): boolean {
    return this.env.inFlight.cancelled;
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

  private sendLog(level: LoggingLevel, data: unknown, logger?: string): void {
    if (!this.env.wantsLog(level)) return;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    this.env.channel.notify("notifications/message", params);
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const { progressToken, inFlight } = this.env;
    if (progressToken === undefined || inFlight.cancelled || inFlight.finished) return;
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

  private requireCapability(capability: "elicitation" | "sampling" | "roots", what: string): void {
    if (this.clientCapabilities[capability] !== undefined) return;
    const message = `The client did not declare the "${capability}" capability, so the server cannot ${what}. Check ctx.client.capabilities.${capability} before calling.`;
    if (this.env.era === "stateful") throw new Error(message);
    // 2026-07-28 answers a request that needs an undeclared capability with -32021,
    // unless the handler catches this and carries on without it.
    throw endsRequest(
      new JsonRpcError(McpErrorCode.MissingRequiredClientCapability, message, {
        requiredCapabilities: { [capability]: {} },
      }),
    );
  }

  /** A 2025 session sends the request; a 2026-07-28 request asks through its result. */
  private ask(
    method: InputMethod,
    params: Record<string, unknown>,
    options: AskOptions | undefined,
  ): Promise<unknown> {
    const { channel, inputRound } = this.env;
    if (channel.request) return channel.request(method, params, this.signal);
    if (inputRound) return inputRound.ask(method, params, options?.key);
    return Promise.reject(
      new Error(
        `${method} cannot be asked for here: on protocol ${this.protocolVersion} only tools/call, prompts/get and resources/read may ask the client for input`,
      ),
    );
  }

  async elicit<S extends SchemaInput>(
    request: ElicitRequest<S>,
    options?: AskOptions,
  ): Promise<ElicitOutcome<InferShape<S>>> {
    if (!supports(this.protocolVersion, "elicitation")) {
      throw new Error(
        `Elicitation needs protocol 2025-06-18 or newer; this client negotiated ${this.protocolVersion}`,
      );
    }
    this.requireCapability("elicitation", "ask the user for input");
    const schema = compileObjectSchema(request.schema, "input", "elicitation schema");
    if (typeof schema === "string") throw new Error(schema);
    const result = (await this.ask(
      "elicitation/create",
      { message: request.message, requestedSchema: schema.jsonSchema },
      options,
    )) as { action?: unknown; content?: unknown };
    if (result.action === "decline" || result.action === "cancel") {
      return { action: result.action } as ElicitOutcome<InferShape<S>>;
    }
    if (result.action !== "accept") {
      throw new Error(
        `The client's answer to the elicitation has action ${JSON.stringify(result.action)}; it must be "accept", "decline" or "cancel"`,
      );
    }
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
