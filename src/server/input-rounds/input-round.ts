import type { AuthInfo } from "../../define/auth.js";
import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";
import { isJsonObject } from "../../jsonrpc/json-object.js";
import type { Params } from "../params.js";
import {
  askDigest,
  bindingOf,
  callerDigest,
  type RequestStateSigner,
  type RoundPayload,
} from "./request-state.js";

/** How long and how often one request may ask its client for input. */
export interface InputRoundLimits {
  readonly signer: RequestStateSigner;
  /** `input_required` results one request may have before asking again is an error. */
  readonly maxRounds: number;
}

/** The requests a 2026-07-28 server may embed in an `input_required` result. */
export type InputMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

/** The default key of an ask: its kind, numbered in order of asking. */
export const KEY_PREFIX: Readonly<Record<InputMethod, string>> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/**
 * Ends a handler's run at an ask the client has not answered yet. The run's
 * outcome is then replaced by an `input_required` result; the handler runs
 * again, from the start, when the client comes back with the answers.
 */
export class InputPending extends Error {
  constructor(readonly key: string) {
    super(
      `Waiting for the client's answer to "${key}": this run ends here, and the handler runs again once the client answers`,
    );
    this.name = "InputPending";
  }
}

/**
 * One run of a 2026-07-28 handler that may ask for input. Asks are keyed (by
 * the author, or by kind and order within the run, which is the same from run
 * to run); an ask answered in an earlier round, or in this request's
 * `inputResponses` when the presented state was issued with it, returns its
 * answer if it asks what was asked under its key then (a file saved in `dev`,
 * or data that changed, may make it ask something else); any other is
 * collected as pending. Answers, a digest of each ask, `roundState` and the
 * pending keys travel to the next run inside the signed `requestState`, so any
 * replica can serve it.
 */
export class InputRound {
  private readonly round: number;
  private readonly answers: Record<string, unknown>;
  /** askDigest of what was asked under each key, in earlier rounds or this run. */
  private readonly asked: Record<string, string>;
  /** The handler's `ctx.roundState`: what it kept in earlier rounds, carried to the next. */
  readonly roundState: Record<string, unknown>;
  private readonly pending = new Map<string, { method: InputMethod; params: Params }>();
  private readonly keysThisRun = new Set<string>();

  private constructor(
    private readonly limits: InputRoundLimits,
    private readonly method: string,
    private readonly params: Params,
    private readonly caller: string | undefined,
    earlier: RoundPayload | undefined,
    responses: Record<string, unknown>,
  ) {
    this.round = earlier?.round ?? 0;
    // An answer this run does not reach is kept for a later one that asks the same.
    this.answers = { ...earlier?.answers, ...responses };
    this.asked = askedIn(earlier);
    this.roundState = { ...earlier?.roundState };
  }

  /**
   * Reads `requestState` and `inputResponses`; throws -32602 when either is
   * refused. `auth`: the verified caller, whom the state must have been issued to.
   */
  static open(
    limits: InputRoundLimits,
    method: string,
    params: Params,
    auth: AuthInfo | undefined,
  ): InputRound {
    const caller = callerDigest(auth);
    const earlier =
      params.requestState === undefined
        ? undefined
        : limits.signer.verify(params.requestState, requestBinding(method, params), caller);
    const responses = readResponses(params.inputResponses);
    return new InputRound(
      limits,
      method,
      params,
      caller,
      earlier,
      answersToAsked(earlier, responses),
    );
  }

  /** The answer to one ask, or a rejection that ends the run (InputPending) or explains a misuse. */
  ask(method: InputMethod, params: Params, key?: string): Promise<unknown> {
    const name = key ?? `${KEY_PREFIX[method]}-${this.keysThisRun.size + 1}`;
    if (this.keysThisRun.has(name)) {
      return Promise.reject(
        new Error(
          `The input key "${name}" was asked for twice in one run; give each ctx.elicit, ctx.sample and ctx.roots call its own key`,
        ),
      );
    }
    this.keysThisRun.add(name);
    const digest = askDigest(method, params);
    if (this.asked[name] === digest && Object.hasOwn(this.answers, name)) {
      return Promise.resolve(this.answers[name]);
    }
    if (this.round >= this.limits.maxRounds) return Promise.reject(this.overLimit());
    this.setPending(name, method, params, digest);
    const waiting = Promise.reject(new InputPending(name));
    // The rejection is the run's end, not an error to report if the author never awaits it.
    waiting.catch(() => {});
    return waiting;
  }

  /**
   * Asks again whatever was answered before: for a handler that found, in its
   * own records, that the user has not finished yet. Returns the error that
   * ends the run.
   */
  demand(method: InputMethod, params: Params, key: string): Error {
    if (this.round >= this.limits.maxRounds) return this.overLimit();
    this.keysThisRun.add(key);
    this.setPending(key, method, params, askDigest(method, params));
    return new InputPending(key);
  }

  /** Asks under `key` in the next round: what the key answered before no longer counts. */
  private setPending(key: string, method: InputMethod, params: Params, digest: string): void {
    delete this.answers[key];
    this.asked[key] = digest;
    this.pending.set(key, { method, params });
  }

  private overLimit(): Error {
    return new Error(
      `This request has already asked the client for input ${this.round} times, the most it may (maxRounds = ${this.limits.maxRounds}); ask for everything you need in fewer rounds (several asks awaited together make one round), or raise inputRounds.maxRounds`,
    );
  }

  /** True when the run asked for something the client has not answered yet. */
  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  /** The `input_required` result carrying every pending ask and the signed state for the next run. */
  inputRequired(): Record<string, unknown> {
    return {
      resultType: "input_required",
      inputRequests: Object.fromEntries(this.pending),
      requestState: this.signState(),
    };
  }

  private signState(): string {
    try {
      return this.limits.signer.sign({
        binding: requestBinding(this.method, this.params),
        ...(this.caller !== undefined && { caller: this.caller }),
        round: this.round + 1,
        asked: Object.fromEntries(
          [...Object.keys(this.answers), ...this.pending.keys()].map((key) => [
            key,
            this.asked[key] ?? "",
          ]),
        ),
        answers: this.answers,
        roundState: this.roundState,
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(
        `ctx.roundState must hold only JSON values (it travels to the client inside requestState): ${why}`,
      );
    }
  }
}

/** Digests the request: only when a state is read or signed, not on every call. */
function requestBinding(method: string, params: Params): string {
  return bindingOf(method, params.name ?? params.uri, params.arguments);
}

/** The digests a state carries; one signed by an older mcp-dir (a list of keys) carries none. */
function askedIn(earlier: RoundPayload | undefined): Record<string, string> {
  const asked: unknown = earlier?.asked;
  return isJsonObject(asked) ? { ...(asked as Record<string, string>) } : {};
}

/**
 * The responses that answer an ask the presented state was issued with (a key
 * it asked and has no answer for). The revision has a server ignore what it
 * does not recognise; without a state, nothing was asked, so nothing is an
 * answer.
 */
function answersToAsked(
  earlier: RoundPayload | undefined,
  responses: Record<string, unknown>,
): Record<string, unknown> {
  const asked = Object.keys(askedIn(earlier)).filter(
    (key) => Object.hasOwn(responses, key) && !Object.hasOwn(earlier?.answers ?? {}, key),
  );
  return Object.fromEntries(asked.map((key) => [key, responses[key]]));
}

/** A client's `inputResponses`, checked: an object of objects, or -32602 saying what is wrong. */
export function readResponses(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  const refused = (why: string) =>
    new JsonRpcError(
      ErrorCode.InvalidParams,
      `Invalid params: inputResponses ${why}; send an object mapping each key of the server's inputRequests to the client's result`,
    );
  if (!isJsonObject(value)) throw refused("must be an object");
  for (const [key, response] of Object.entries(value)) {
    if (!isJsonObject(response)) throw refused(`has a "${key}" that is not an object`);
  }
  return value;
}
