import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { AuthInfo } from "../../define/auth.js";
import { ErrorCode, JsonRpcError } from "../../jsonrpc/index.js";

/** The variable a deployment sets so every replica signs and accepts the same `requestState`. */
export const STATE_KEY_ENV = "MCP_DIR_STATE_KEY";
const MIN_KEY_BYTES = 32;

/** What a handler's earlier rounds left for its next run; travels signed inside `requestState`. */
export interface RoundPayload {
  /** Which request the state belongs to: method, target and a digest of the arguments. */
  readonly binding: string;
  /** A digest of the caller it was issued to (HTTP with OAuth), so no one else can present it. */
  readonly caller?: string;
  /** Epoch ms after which the state is refused. */
  readonly expires: number;
  /** How many `input_required` results this request has had so far. */
  readonly round: number;
  /**
   * What was asked under each key this state carries, answered or still
   * pending, as askDigest: an answer counts only for the same ask. The
   * unanswered keys are the asks this state was issued with, the only
   * answers it takes.
   */
  readonly asked: Record<string, string>;
  /** Answers from earlier rounds, by input key. */
  readonly answers: Record<string, unknown>;
  /** The handler's own `ctx.roundState`. */
  readonly roundState: Record<string, unknown>;
}

/** The request a state belongs to, so a state issued for one call cannot be replayed on another. */
export function bindingOf(method: string, target: unknown, args: unknown): string {
  return createHash("sha256")
    .update(canonicalJson([method, target ?? null, args ?? null]))
    .digest("base64url");
}

/**
 * What one ask asks (its method and params), in 16 bytes: the same ask digests
 * the same in every run and on every replica, and a changed message, schema or
 * sampling request does not.
 */
export function askDigest(method: string, params: unknown): string {
  return createHash("sha256")
    .update(canonicalJson([method, params]))
    .digest()
    .subarray(0, 16)
    .toString("base64url");
}

/** Callers whose token names no subject nor client, each by a digest of its token (nameByToken). */
const namelessCallers = new WeakMap<AuthInfo, string>();

/**
 * Has the caller `auth` stands for be told apart by its `token` when the
 * token names no one (an introspection answer or a verifyToken may name
 * neither a subject nor a client): without it, every such token would be
 * one caller, free to use the others' sessions and states.
 */
export function nameByToken(auth: AuthInfo, token: string): void {
  if (auth.subject !== undefined || auth.clientId !== undefined) return;
  namelessCallers.set(auth, createHash("sha256").update(token).digest("base64url"));
}

/**
 * The caller a state or a session is bound to: its token's subject (or, for
 * a client acting on its own behalf, its client id; for a token naming
 * neither, the token itself); undefined without a verified caller.
 */
export function callerKey(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  if (auth.subject !== undefined) return `sub:${auth.subject}`;
  const token = auth.clientId === undefined ? namelessCallers.get(auth) : undefined;
  return token !== undefined ? `token:${token}` : `client:${auth.clientId ?? ""}`;
}

/** The caller as a state carries it: a digest, so a state read by others names no one. */
export function callerDigest(auth: AuthInfo | undefined): string | undefined {
  const key = callerKey(auth);
  return key === undefined ? undefined : createHash("sha256").update(key).digest("base64url");
}

/** JSON with object keys sorted, so the same arguments digest the same whatever their order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function refused(why: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: requestState ${why}`);
}

/**
 * Signs and verifies `requestState`: base64url JSON, a dot, and its
 * HMAC-SHA256. The client may read it but not change it; a state that was
 * altered, signed with another key, expired, or issued for another request is
 * refused before any handler runs on it.
 */
export class RequestStateSigner {
  private readonly key: Buffer;
  /** True when no key was configured: a key made for this process only. */
  readonly ephemeral: boolean;

  constructor(
    key: string | Uint8Array | undefined,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.ephemeral = key === undefined;
    this.key = key === undefined ? randomBytes(MIN_KEY_BYTES) : Buffer.from(key);
    if (this.key.length < MIN_KEY_BYTES) {
      throw new TypeError(
        `The requestState key must be at least ${MIN_KEY_BYTES} bytes (got ${this.key.length}); set ${STATE_KEY_ENV} (or inputRounds.key) to a long random secret, e.g. the output of \`openssl rand -hex 32\``,
      );
    }
  }

  sign(payload: Omit<RoundPayload, "expires">): string {
    const body = Buffer.from(
      JSON.stringify({ ...payload, expires: this.now() + this.ttlMs }),
    ).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of `state`, or a -32602 error saying why it is refused. */
  verify(state: unknown, binding: string, caller: string | undefined): RoundPayload {
    if (typeof state !== "string") throw refused("must be the string the server sent");
    const dot = state.indexOf(".");
    const body = state.slice(0, dot);
    const given = Buffer.from(state.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.mac(body), "base64url");
    if (dot < 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw refused(
        `failed its integrity check: it was altered, or signed by a server with another key (replicas must share ${STATE_KEY_ENV}); send the request again without requestState and inputResponses`,
      );
    }
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as RoundPayload;
    if (payload.caller !== caller) {
      throw refused(
        "was issued to another caller (the access token names someone else); send this request without requestState and inputResponses",
      );
    }
    if (payload.binding !== binding) {
      throw refused(
        "was issued for another request (a different method, target or arguments); send this request without requestState and inputResponses",
      );
    }
    if (this.now() >= payload.expires) {
      throw refused(
        `has expired (it is valid for ${this.ttlMs} ms); send the request again without requestState and inputResponses`,
      );
    }
    return payload;
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}
