import type {
  ElicitOutcome,
  ElicitRequest,
  HandlerContext,
  HandlerLogger,
} from "../define/context.js";
import type { InferShape, SchemaInput } from "../define/schema.js";
import { compileObjectSchema } from "../define/schema.js";
import type { JsonRpcId } from "../jsonrpc/index.js";
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
import type { Session } from "./session.js";

/** The cancellation state of one request; the AbortController is made only when asked for. */
export class InFlight {
  private controller: AbortController | undefined;
  private reason: Error | undefined;
  cancelled = false;
  /** Answered: nothing more may be sent for it (progress must stop at completion). */
  finished = false;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.cancelled && !this.controller.signal.aborted) this.controller.abort(this.reason);
    return this.controller.signal;
  }

  cancel(reason: string): void {
    this.cancelled = true;
    this.reason = new Error(reason);
    this.controller?.abort(this.reason);
  }
}

const DEFAULT_MAX_TOKENS = 1024;

/**
 * Everything one request needs: who asked, in which protocol revision, with
 * which client capabilities. The version and capabilities come from here, never
 * from global state, so a stateless request can carry its own. It is also the
 * `ctx` that handlers receive.
 */
export class RequestContext implements HandlerContext {
  private logger: HandlerLogger | undefined;
  private lastProgress = Number.NEGATIVE_INFINITY;

  constructor(
    readonly engine: Engine,
    readonly session: Session,
    readonly requestId: JsonRpcId,
    readonly protocolVersion: string,
    readonly clientCapabilities: ClientCapabilities,
    readonly progressToken: string | number | undefined,
    private readonly inFlight: InFlight,
  ) {}

  get signal(): AbortSignal {
    return this.inFlight.signal;
  }

  get cancelled(): boolean {
    return this.inFlight.cancelled;
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
    if (!this.session.wantsLog(level)) return;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    this.session.notify("notifications/message", params, { relatedRequestId: this.requestId });
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.progressToken === undefined || this.inFlight.cancelled || this.inFlight.finished) {
      return;
    }
    if (!(progress > this.lastProgress)) {
      this.engine.warn(
        `progress must increase with each report: ${progress} came after ${this.lastProgress}; it was not sent`,
      );
      return;
    }
    this.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && supports(this.protocolVersion, "progressMessage")) {
      params.message = message;
    }
    this.session.notify("notifications/progress", params, { relatedRequestId: this.requestId });
  }

  private requireCapability(capability: "elicitation" | "sampling" | "roots", what: string): void {
    if (this.clientCapabilities[capability] === undefined) {
      throw new Error(
        `The client did not declare the "${capability}" capability, so the server cannot ${what}. Check ctx.session.clientCapabilities.${capability} before calling.`,
      );
    }
  }

  private ask(method: string, params: Record<string, unknown>): Promise<unknown> {
    return this.session.request(method, params, {
      signal: this.signal,
      relatedRequestId: this.requestId,
    });
  }

  async elicit<S extends SchemaInput>(
    request: ElicitRequest<S>,
  ): Promise<ElicitOutcome<InferShape<S>>> {
    if (!supports(this.protocolVersion, "elicitation")) {
      throw new Error(
        `Elicitation needs protocol 2025-06-18 or newer; this client negotiated ${this.protocolVersion}`,
      );
    }
    this.requireCapability("elicitation", "ask the user for input");
    const schema = compileObjectSchema(request.schema, "input", "elicitation schema");
    if (typeof schema === "string") throw new Error(schema);
    const result = (await this.ask("elicitation/create", {
      message: request.message,
      requestedSchema: schema.jsonSchema,
    })) as { action?: unknown; content?: unknown };
    if (result.action !== "accept") {
      const action = result.action === "decline" ? "decline" : "cancel";
      return { action } as ElicitOutcome<InferShape<S>>;
    }
    const checked = await schema.validate(result.content ?? {});
    if (!checked.ok) {
      throw new Error(
        `The client's answer does not match the elicitation schema: ${checked.message}`,
      );
    }
    return { action: "accept", content: checked.value } as ElicitOutcome<InferShape<S>>;
  }

  async sample(request: CreateMessageParams | string): Promise<CreateMessageResult> {
    this.requireCapability("sampling", "ask the client's model for a completion");
    const params: CreateMessageParams =
      typeof request === "string"
        ? {
            messages: [{ role: "user", content: { type: "text", text: request } }],
            maxTokens: DEFAULT_MAX_TOKENS,
          }
        : request;
    return (await this.ask("sampling/createMessage", { ...params })) as CreateMessageResult;
  }

  async roots(): Promise<Root[]> {
    this.requireCapability("roots", "list the client's roots");
    const result = (await this.ask("roots/list", {})) as { roots?: Root[] };
    return result.roots ?? [];
  }
}
