import { isRequest, type JsonRpcId, type Parsed } from "../../jsonrpc/index.js";
import { isStatelessVersion } from "../../protocol/versions.js";
import { callerKey, type McpServer } from "../../server/index.js";
import type { ResolvedHttpOptions } from "../../settings/http-options.js";
import type { Caller } from "./caller.js";
import { headerOf, type RequestHead, type ResponseWriter } from "./exchange.js";
import { ForeignStreams } from "./foreign-streams.js";
import {
  ANOTHER_CALLERS_SESSION,
  SESSION_NOT_FOUND,
  sendEmpty,
  sendError,
  sendRefusal,
  TRANSPORT_ERROR,
  UNKNOWN_SESSION,
} from "./responses.js";
import { checkGetAccept, checkProtocolVersion } from "./security.js";
import { SessionTable } from "./session-table.js";
import type { HttpSessionTransport } from "./session-transport.js";

const MISSING_SESSION =
  "Bad Request: Mcp-Session-Id header is required; send initialize first (without the header), then repeat the Mcp-Session-Id it returns on every request";

/** A parsed POST body the door has not already refused as invalid. */
type Messages = Exclude<Parsed, { kind: "invalid" }>;

/** 2026-07-28 has no session: GET and DELETE mean nothing to it. */
function refuseStateless(req: RequestHead, res: ResponseWriter): boolean {
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

/**
 * The door's 2025 sessions, where it keeps them: a POST delivered to the
 * session it names (or an initialize that opens one), a GET stream opened or
 * resumed (here, or from the log when another replica holds the session),
 * and a DELETE that ends the session. Each session is bound to its caller.
 */
export class SessionRequests {
  readonly table: SessionTable;
  /** Streams of sessions other replicas hold, resumed here (with a log they share). */
  private readonly foreign: ForeignStreams | undefined;

  constructor(server: McpServer, options: ResolvedHttpOptions) {
    this.table = new SessionTable(server, options);
    const log = server.replicas?.sessions;
    this.foreign = log ? new ForeignStreams(log, options.keepAliveMs) : undefined;
  }

  /** A POST that names a session. The session's own checks come first, the version's among them. */
  post(parsed: Messages, req: RequestHead, res: ResponseWriter, caller: Caller): void {
    const transport = this.sessionOf(req, res, caller);
    if (transport) this.deliver(parsed, transport, res, caller);
  }

  /** A POST without a session id: the body must be an initialize that opens one. */
  postWithoutSession(parsed: Messages, res: ResponseWriter, caller: Caller): void {
    this.deliver(parsed, undefined, res, caller);
  }

  get(req: RequestHead, res: ResponseWriter, caller: Caller): void {
    if (refuseStateless(req, res)) return;
    const refusal = checkGetAccept(req.headers);
    if (refusal) {
      sendRefusal(res, refusal);
      return;
    }
    const id = headerOf(req.headers, "mcp-session-id");
    const lastEventId = headerOf(req.headers, "last-event-id");
    if (this.foreign && id !== undefined && lastEventId !== undefined && !this.table.get(id)) {
      const refusal = checkProtocolVersion(req);
      if (refusal) sendRefusal(res, refusal);
      else this.foreign.resume(res, id, lastEventId, caller);
      return;
    }
    const transport = this.sessionOf(req, res, caller);
    if (!transport) return;
    if (lastEventId === undefined) transport.openStandalone(res, caller.until);
    else transport.resume(res, lastEventId, caller.until);
  }

  delete(req: RequestHead, res: ResponseWriter, caller: Caller): void {
    if (refuseStateless(req, res)) return;
    const transport = this.sessionOf(req, res, caller);
    if (transport) void transport.close().then(() => sendEmpty(res, 204));
  }

  async close(): Promise<void> {
    this.foreign?.close();
    await this.table.close();
  }

  /**
   * The session a request names; answers 400/404 itself when there is none,
   * and 403 when the session belongs to another caller.
   */
  private sessionOf(
    req: RequestHead,
    res: ResponseWriter,
    caller: Caller,
  ): HttpSessionTransport | undefined {
    const id = headerOf(req.headers, "mcp-session-id");
    const transport = id === undefined ? undefined : this.table.get(id);
    const refusal =
      id === undefined
        ? { status: 400, code: TRANSPORT_ERROR, message: MISSING_SESSION }
        : !transport
          ? { status: 404, code: SESSION_NOT_FOUND, message: UNKNOWN_SESSION }
          : transport.owner !== callerKey(caller.auth)
            ? { status: 403, code: TRANSPORT_ERROR, message: ANOTHER_CALLERS_SESSION }
            : checkProtocolVersion(req);
    if (refusal) {
      sendRefusal(res, refusal);
      return undefined;
    }
    return transport;
  }

  /** A 2025 POST to a session, or an initialize that opens one. */
  private deliver(
    parsed: Messages,
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
    if (!transport && parsed.kind === "single" && initialize) {
      const owner = callerKey(caller.auth);
      const refusal = this.table.refusal(owner);
      if (refusal) {
        sendRefusal(res, refusal);
        return;
      }
      transport = this.table.create(owner);
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
}
