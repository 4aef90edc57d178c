import {
  ErrorCode,
  encodeMessage,
  failure,
  isRequest,
  type Parsed,
  parseMessage,
} from "../../jsonrpc/index.js";
import { Closing, callerKey, eraOf, type McpServer } from "../../server/index.js";
import type { ResolvedHttpOptions } from "../../settings/http-options.js";
import { AuthGate, type Verdict } from "./auth/gate.js";
import { bodyRefusal } from "./body-refusal.js";
import { ANONYMOUS, type Caller } from "./caller.js";
import { allowOrigin, answerPreflight } from "./cors.js";
import { type BodySource, headerOf, type RequestHead, type ResponseWriter } from "./exchange.js";
import { ListenStreamCount } from "./listen-stream-count.js";
import { metadataPaths } from "./metadata.js";
import { sendError, sendJson, sendRefusal, TRANSPORT_ERROR } from "./responses.js";
import {
  checkHostAndOrigin,
  checkJsonContentType,
  checkPostAccept,
  checkProtocolVersion,
  checkSingleHost,
  type Refusal,
} from "./security.js";
import { SessionRequests } from "./session-requests.js";
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

const SHUTTING_DOWN = "Service Unavailable: the server is shutting down; try again later";

/**
 * The one HTTP door of a server, whatever the runtime: every request meets
 * the same checks (Host and Origin, bearer token, method, Accept and
 * Content-Type, body limit), its era is decided once, and it goes on to a
 * 2025 session, a 2025 request served on its own, or the stateless 2026 path.
 * node:http hands it IncomingMessage and ServerResponse as they are; the
 * fetch handler hands it a web Request and a writer that becomes a Response.
 */
export class HttpDoor<Req extends RequestHead> {
  private readonly sessions: SessionRequests | undefined;
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
    this.sessions = mode === "sessions" ? new SessionRequests(server, options) : undefined;
    this.metadataPaths = metadataPaths(options);
    this.listenStreams = new ListenStreamCount(options);
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
    return this.sessions?.table.size ?? 0;
  }

  stats(): HttpStats {
    return {
      ...sessionTotals(this.sessions?.table.values() ?? []),
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
      sendRefusal(res, refusal);
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
    if (verdict.status !== undefined) sendRefusal(res, verdict);
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
    else if (req.method === "GET" || req.method === "DELETE") this.getOrDelete(req, res, caller);
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

  private post(req: Req, res: ResponseWriter, caller: Caller): void {
    const refusal = checkPostAccept(req.headers) ?? checkJsonContentType(req.headers);
    if (refusal) {
      sendRefusal(res, refusal);
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
        if (refusal) sendRefusal(res, refusal);
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
      this.sessions.post(parsed, req, res, caller);
    } else {
      const refusal = checkProtocolVersion(req);
      if (refusal) sendRefusal(res, refusal);
      else if (!this.sessions) {
        const version = headerOf(req.headers, "mcp-protocol-version");
        postSessionless(this.server, parsed, version, res, caller);
      } else {
        this.sessions.postWithoutSession(parsed, res, caller);
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

  /** GET and DELETE belong to 2025 sessions: an endpoint without them has no stream to open or end. */
  private getOrDelete(req: Req, res: ResponseWriter, caller: Caller): void {
    const { sessions } = this;
    if (!sessions) {
      sendError(
        res,
        405,
        TRANSPORT_ERROR,
        `Method Not Allowed: this endpoint keeps no sessions, so there is no stream to ${req.method === "GET" ? "open" : "end"}; POST each request`,
        { allow: "POST" },
      );
    } else if (req.method === "GET") {
      sessions.get(req, res, caller);
    } else {
      sessions.delete(req, res, caller);
    }
  }

  /** Ends every session; the door answers nothing afterwards but 503. */
  async close(): Promise<void> {
    this.closing.close();
    await this.sessions?.close();
  }
}
