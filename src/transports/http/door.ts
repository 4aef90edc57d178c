import {
  ErrorCode,
  encodeMessage,
  failure,
  isRequest,
  type JsonRpcId,
  type Parsed,
  parseMessage,
} from "../../jsonrpc/index.js";
import { isStatelessVersion } from "../../protocol/versions.js";
import { Closing, callerKey, eraOf, type McpServer } from "../../server/index.js";
import type { ResolvedHttpOptions } from "../../settings/http-options.js";
import { AuthGate, type Verdict } from "./auth/gate.js";
import { bodyRefusal } from "./body-refusal.js";
import { ANONYMOUS, type Caller } from "./caller.js";
import { allowOrigin, answerPreflight } from "./cors.js";
import { type BodySource, headerOf, type RequestHead, type ResponseWriter } from "./exchange.js";
import { ForeignStreams } from "./foreign-streams.js";
import { ListenStreamCount } from "./listen-stream-count.js";
import { metadataPaths } from "./metadata.js";
import {
  ANOTHER_CALLERS_SESSION,
  SESSION_NOT_FOUND,
  sendEmpty,
  sendError,
  sendJson,
  TRANSPORT_ERROR,
  UNKNOWN_SESSION,
} from "./responses.js";
import {
  checkGetAccept,
  checkHostAndOrigin,
  checkJsonContentType,
  checkPostAccept,
  checkProtocolVersion,
  checkSingleHost,
  type Refusal,
} from "./security.js";
import { SessionTable } from "./session-table.js";
import type { HttpSessionTransport } from "./session-transport.js";
import { postSessionless } from "./sessionless-post.js";
import { answerHealth, answerMetadata } from "./side-paths.js";
import { serveStatelessPost } from "./stateless-post.js";
import { type HttpStats, sessionTotals } from "./stats.js";

/**
 * Whether 2025 clients get sessions: a long-lived process keeps them (GET
 * streams, subscriptions, requests to the client); a runtime that may serve
 * each request from another isolate (Workers) keeps none and answers each
 * 2025 request on its own.
 */
export type SessionMode = "sessions" | "sessionless";

const MISSING_SESSION =
  "Bad Request: Mcp-Session-Id header is required; send initialize first (without the header), then repeat the Mcp-Session-Id it returns on every request";
const SHUTTING_DOWN = "Service Unavailable: the server is shutting down; try again later";

function refuse(res: ResponseWriter, refusal: Refusal): void {
  sendError(res, refusal.status, refusal.code, refusal.message, refusal.headers);
}

/**
 * The one HTTP door of a server, whatever the runtime: every request meets
 * the same checks (Host and Origin, bearer token, method, Accept and
 * Content-Type, body limit), its era is decided once, and it goes on to a
 * 2025 session, a 2025 request served on its own, or the stateless 2026 path.
 * node:http hands it IncomingMessage and ServerResponse as they are; the
 * fetch handler hands it a web Request and a writer that becomes a Response.
 */
export class HttpDoor<Req extends RequestHead> {
  private readonly sessions: SessionTable | undefined;
  /** Streams of sessions other replicas hold, resumed here (with a log they share). */
  private readonly foreign: ForeignStreams | undefined;
  /** Who may call: undefined when the endpoint is open (no token, no OAuth). */
  private readonly gate: AuthGate | undefined;
  private readonly closing = new Closing();
  /** Where the protected-resource metadata is served. */
  private readonly metadataPaths: ReadonlySet<string>;
  private readonly listenStreams: ListenStreamCount;

  constructor(
    private readonly server: McpServer,
    private readonly options: ResolvedHttpOptions,
    private readonly body: BodySource<Req>,
    mode: SessionMode,
  ) {
    this.sessions = mode === "sessions" ? new SessionTable(server, options) : undefined;
    this.metadataPaths = metadataPaths(options);
    this.listenStreams = new ListenStreamCount(options);
    const log = server.replicas?.sessions;
    this.foreign = this.sessions && log ? new ForeignStreams(log, options.keepAliveMs) : undefined;
    const guarded = options.authToken !== undefined || options.auth !== undefined;
    this.gate = guarded
      ? new AuthGate(options, {
          scopes: () => server.registry.scopes(),
          warn: (m) => server.warn(m),
        })
      : undefined;
  }

  /**
   * Resolves once the authorization server's metadata and keys are read
   * (nothing to do without OAuth); rejects, naming the URL, when they cannot
   * be. Without it, they are read at the first request that needs them.
   * With Redis, also waits (a few seconds at most) for the server to reach it.
   */
  async ready(): Promise<void> {
    await Promise.all([this.gate?.prepare(), this.server.ready()]);
  }

  get sessionCount(): number {
    return this.sessions?.size ?? 0;
  }

  stats(): HttpStats {
    return {
      ...sessionTotals(this.sessions?.values() ?? []),
      listenStreams: this.listenStreams.size,
    };
  }

  /**
   * Answers the MCP endpoint, `/health` and the protected-resource metadata.
   * Any other path goes to `next` when given, else 404.
   */
  handle(req: Req, res: ResponseWriter, next?: () => void): void {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    const { options } = this;
    if (path === options.path) {
      this.endpoint(req, res);
    } else if (path === "/health") {
      this.guarded(req, res, () => answerHealth(req, res, this.closing.closed));
    } else if (this.metadataPaths.has(path)) {
      // A browser client reads the metadata to find where to authorize.
      this.guarded(req, res, () =>
        answerMetadata(req, res, this.gate, this.server.serverInfo().name),
      );
    } else if (next) {
      next();
    } else {
      sendError(res, 404, TRANSPORT_ERROR, `Not Found: the MCP endpoint is ${options.path}`);
    }
  }

  /** One Host, one we serve, and no Origin of another site. */
  private checkHost(req: Req): Refusal | undefined {
    return checkSingleHost(req) ?? checkHostAndOrigin(req.headers, this.options);
  }

  /** A path other than the endpoint's: GET only, open to every caller the Host and Origin admit. */
  private guarded(req: Req, res: ResponseWriter, then: () => void): void {
    if (this.accepted(req, res, "GET")) then();
  }

  /**
   * Host and Origin checked (refused here otherwise), the page of an accepted
   * Origin allowed to read what follows, and a preflight answered: true when
   * the request goes on.
   */
  private accepted(req: Req, res: ResponseWriter, methods: string): boolean {
    const refusal = this.checkHost(req);
    if (refusal) {
      refuse(res, refusal);
      return false;
    }
    allowOrigin(req.headers, res);
    if (req.method !== "OPTIONS") return true;
    answerPreflight(req.headers, res, methods);
    return false;
  }

  private endpoint(req: Req, res: ResponseWriter): void {
    if (!this.accepted(req, res, this.sessions ? "POST, GET, DELETE" : "POST")) return;
    const { gate } = this;
    if (gate === undefined) {
      this.admitted(req, res, ANONYMOUS);
    } else {
      // Only a token never seen before is verified asynchronously; a known one is a value.
      const verdict = gate.check(req);
      if (verdict instanceof Promise) void verdict.then((v) => this.verdict(req, res, gate, v));
      else this.verdict(req, res, gate, verdict);
    }
  }

  private verdict(req: Req, res: ResponseWriter, gate: AuthGate, verdict: Verdict): void {
    if (verdict.status !== undefined) refuse(res, verdict);
    else if (verdict.auth === undefined) this.admitted(req, res, ANONYMOUS);
    else {
      const forbidden = (scopes: readonly string[]) => gate.forbidden(req, scopes);
      const until = gate.acceptedUntil(verdict.auth);
      this.admitted(req, res, { auth: verdict.auth, forbidden, until });
    }
  }

  private admitted(req: Req, res: ResponseWriter, caller: Caller): void {
    if (this.closing.closed) sendError(res, 503, TRANSPORT_ERROR, SHUTTING_DOWN);
    else if (req.method === "POST") this.post(req, res, caller);
    else if (req.method === "GET") this.get(req, res, caller);
    else if (req.method === "DELETE") this.delete(req, res, caller);
    else {
      sendError(
        res,
        405,
        TRANSPORT_ERROR,
        `Method Not Allowed: the MCP endpoint takes POST, GET and DELETE, not ${req.method}`,
        { allow: "POST, GET, DELETE" },
      );
    }
  }

  /**
   * The session a request names; answers 400/404 itself when there is none,
   * and 403 when the session belongs to another caller.
   */
  private sessionOf(
    req: Req,
    res: ResponseWriter,
    caller: Caller,
  ): HttpSessionTransport | undefined {
    const id = headerOf(req.headers, "mcp-session-id");
    const transport = id === undefined ? undefined : this.sessions?.get(id);
    const refusal =
      id === undefined
        ? { status: 400, code: TRANSPORT_ERROR, message: MISSING_SESSION }
        : !transport
          ? { status: 404, code: SESSION_NOT_FOUND, message: UNKNOWN_SESSION }
          : transport.owner !== callerKey(caller.auth)
            ? { status: 403, code: TRANSPORT_ERROR, message: ANOTHER_CALLERS_SESSION }
            : checkProtocolVersion(req);
    if (refusal) {
      refuse(res, refusal);
      return undefined;
    }
    return transport;
  }

  private post(req: Req, res: ResponseWriter, caller: Caller): void {
    const refusal = checkPostAccept(req.headers) ?? checkJsonContentType(req.headers);
    if (refusal) {
      refuse(res, refusal);
      return;
    }
    // Only the body tells its era, and so whether an Mcp-Session-Id means anything.
    this.body.read(req, this.options.maxBodyBytes, (body) => {
      if (body.ok && this.closing.closed) {
        sendError(res, 503, TRANSPORT_ERROR, SHUTTING_DOWN);
      } else if (body.ok) {
        this.route(parseMessage(body.text), req, res, caller);
      } else {
        const refusal = bodyRefusal(body, this.options.maxBodyBytes);
        if (refusal?.headers?.connection === "close") this.body.drop(req, res);
        if (refusal) refuse(res, refusal);
      }
    });
  }

  /**
   * Where a POST's messages go: decided once, from the body and the headers.
   * A 2026-07-28 request is served statelessly even with an Mcp-Session-Id,
   * which that revision has a server ignore (and never echo).
   */
  private route(parsed: Parsed, req: Req, res: ResponseWriter, caller: Caller): void {
    if (parsed.kind === "invalid") {
      const { id, error } = parsed.error;
      sendJson(res, 400, JSON.stringify(id === null ? { jsonrpc: "2.0", error } : parsed.error));
    } else if (eraOf(parsed, headerOf(req.headers, "mcp-protocol-version")) === "stateless") {
      this.stateless(parsed, req, res, caller);
    } else if (this.sessions && headerOf(req.headers, "mcp-session-id") !== undefined) {
      // The session's own checks come first (sessionOf), the version's among them.
      const transport = this.sessionOf(req, res, caller);
      if (transport) this.deliver(parsed, transport, res, caller);
    } else {
      const refusal = checkProtocolVersion(req);
      if (refusal) refuse(res, refusal);
      else if (!this.sessions) {
        const version = headerOf(req.headers, "mcp-protocol-version");
        postSessionless(this.server, parsed, version, res, caller);
      } else {
        // Without a session id the body must be an initialize that opens one.
        this.deliver(parsed, undefined, res, caller);
      }
    }
  }

  /** A 2026-07-28 POST: one message, no session. */
  private stateless(parsed: Parsed, req: Req, res: ResponseWriter, caller: Caller): void {
    if (parsed.kind === "single") {
      const { message } = parsed;
      if (isRequest(message) && message.method === "subscriptions/listen") {
        const refusal = this.listenStreams.hold(callerKey(caller.auth), res);
        if (refusal) {
          const answer = failure(message.id, refusal.code, refusal.message);
          sendJson(res, refusal.status, encodeMessage(answer));
          return;
        }
      }
      const { keepAliveMs } = this.options;
      serveStatelessPost(this.server, req.headers, res, message, {
        atClose: this.closing.atClose,
        keepAliveMs,
        caller,
      });
    } else {
      sendError(
        res,
        400,
        ErrorCode.InvalidRequest,
        "Invalid Request: protocol 2026-07-28 takes one JSON-RPC message per POST, not a batch",
      );
    }
  }

  /** A 2025 POST to a session, or an initialize that opens one. */
  private deliver(
    parsed: Exclude<Parsed, { kind: "invalid" }>,
    known: HttpSessionTransport | undefined,
    res: ResponseWriter,
    caller: Caller,
  ): void {
    const ids: JsonRpcId[] = [];
    let initialize = false;
    if (parsed.kind === "single") {
      if (isRequest(parsed.message)) {
        ids.push(parsed.message.id);
        initialize = parsed.message.method === "initialize";
      }
    } else {
      for (const item of parsed.items) {
        if (item.ok && isRequest(item.message)) ids.push(item.message.id);
      }
    }
    let transport = known;
    if (!transport && this.sessions && parsed.kind === "single" && initialize) {
      const owner = callerKey(caller.auth);
      const refusal = this.sessions.refusal(owner);
      if (refusal) {
        refuse(res, refusal);
        return;
      }
      transport = this.sessions.create(owner);
    }
    if (!transport) {
      const why = parsed.kind === "batch" ? " (initialize cannot be part of a batch)" : "";
      sendError(res, 400, TRANSPORT_ERROR, MISSING_SESSION + why);
    } else if (ids.length > 0) {
      transport.post(parsed, res, ids, initialize, caller);
    } else {
      transport.accept(parsed, res, caller.auth);
    }
  }

  /** 2026-07-28 has no session: GET and DELETE mean nothing to it, nor to an endpoint without sessions. */
  private refuseSessionless(req: Req, res: ResponseWriter): boolean {
    if (!this.sessions) {
      sendError(
        res,
        405,
        TRANSPORT_ERROR,
        `Method Not Allowed: this endpoint keeps no sessions, so there is no stream to ${req.method === "GET" ? "open" : "end"}; POST each request`,
        { allow: "POST" },
      );
      return true;
    }
    // An Mcp-Session-Id changes nothing: 2026-07-28 has a server ignore it.
    if (!isStatelessVersion(headerOf(req.headers, "mcp-protocol-version"))) return false;
    sendError(
      res,
      405,
      TRANSPORT_ERROR,
      `Method Not Allowed: protocol 2026-07-28 takes POST only (${req.method} belonged to 2025 sessions); use subscriptions/listen for notifications`,
      { allow: "POST" },
    );
    return true;
  }

  private get(req: Req, res: ResponseWriter, caller: Caller): void {
    if (this.refuseSessionless(req, res)) return;
    const refusal = checkGetAccept(req.headers);
    if (refusal) {
      refuse(res, refusal);
      return;
    }
    const id = headerOf(req.headers, "mcp-session-id");
    const lastEventId = headerOf(req.headers, "last-event-id");
    if (this.foreign && id !== undefined && lastEventId !== undefined && !this.sessions?.get(id)) {
      const refusal = checkProtocolVersion(req);
      if (refusal) refuse(res, refusal);
      else this.foreign.resume(res, id, lastEventId, caller);
      return;
    }
    const transport = this.sessionOf(req, res, caller);
    if (!transport) return;
    if (lastEventId === undefined) transport.openStandalone(res, caller.until);
    else transport.resume(res, lastEventId, caller.until);
  }

  private delete(req: Req, res: ResponseWriter, caller: Caller): void {
    if (this.refuseSessionless(req, res)) return;
    const transport = this.sessionOf(req, res, caller);
    if (transport) void transport.close().then(() => sendEmpty(res, 204));
  }

  /** Ends every session; the door answers nothing afterwards but 503. */
  async close(): Promise<void> {
    this.closing.close();
    this.foreign?.close();
    await this.sessions?.close();
  }
}
