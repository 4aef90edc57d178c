import { thrownMessage } from "../../define/thrown.js";
import { callerKey } from "../../server/index.js";
import type { FollowedStream, SessionLog } from "../../server/replicas/session-log.js";
import type { Caller } from "./caller.js";
import { eventId, parseEventId, STANDALONE_STREAM } from "./event-store.js";
import type { ResponseWriter } from "./exchange.js";
import {
  ANOTHER_CALLERS_SESSION,
  nothingToResume,
  SESSION_NOT_FOUND,
  sendError,
  TRANSPORT_ERROR,
  UNKNOWN_SESSION,
} from "./responses.js";
import { SseConnection } from "./sse.js";

const REPLICA_STOPPED =
  "Session not found: the replica that held it stopped, and nothing it sent is left to resume; send initialize again without an Mcp-Session-Id";

interface Carried {
  readonly connection: SseConnection;
  readonly followed: FollowedStream;
}

/**
 * Streams of 2025 sessions that other replicas hold, resumed here: a GET with
 * Last-Event-ID for a session this replica does not have is answered from
 * the log replicas share (what the stream sent after that event), and then
 * carries what the session's replica goes on sending on that stream, until
 * the stream ends (a POST stream's response), the session ends or its
 * replica stops. Only resumption crosses: any other request of the session
 * must reach the replica that holds it. As on that replica, the session's
 * GET stream also ends when the caller's token stops being accepted (the
 * client resumes it with a fresh one); a POST's stream ends with its response.
 */
export class ForeignStreams {
  private readonly carried = new Set<Carried>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: SessionLog,
    private readonly keepAliveMs: number,
  ) {}

  /** `caller`: who asks; only the session's own caller may resume it. */
  resume(res: ResponseWriter, sessionId: string, lastEventId: string, caller: Caller): void {
    const position = parseEventId(lastEventId);
    if (!position) {
      sendError(res, 400, TRANSPORT_ERROR, nothingToResume(lastEventId));
      return;
    }
    this.log.follow(sessionId, position.stream, position.seq).then(
      (followed) => {
        // As on the replica holding the session, the caller's token ends only its GET stream.
        const until = position.stream === STANDALONE_STREAM ? caller.until : undefined;
        this.answer(
          res,
          sessionId,
          lastEventId,
          { owner: callerKey(caller.auth), until },
          followed,
        );
      },
      (error: unknown) =>
        sendError(res, 503, TRANSPORT_ERROR, `Service Unavailable: ${thrownMessage(error)}`),
    );
  }

  private answer(
    res: ResponseWriter,
    sessionId: string,
    lastEventId: string,
    asker: { readonly owner: string | undefined; readonly until: number | undefined },
    followed: FollowedStream | undefined,
  ): void {
    const refusal = !followed
      ? { status: 404, code: SESSION_NOT_FOUND, message: UNKNOWN_SESSION }
      : followed.owner !== asker.owner
        ? { status: 403, code: TRANSPORT_ERROR, message: ANOTHER_CALLERS_SESSION }
        : !followed.known
          ? { status: 400, code: TRANSPORT_ERROR, message: nothingToResume(lastEventId) }
          : !followed.alive && followed.missed.length === 0
            ? { status: 404, code: SESSION_NOT_FOUND, message: REPLICA_STOPPED }
            : undefined;
    if (!followed || refusal || res.destroyed) {
      followed?.stop();
      if (refusal) sendError(res, refusal.status, refusal.code, refusal.message);
      return;
    }
    const carried: Carried = {
      followed,
      connection: new SseConnection(res, { "mcp-session-id": sessionId }, () => this.drop(carried)),
    };
    const { connection } = carried;
    connection.endAt(asker.until);
    for (const event of followed.missed)
      connection.event(eventId(event.stream, event.seq), event.data);
    if (followed.over) {
      followed.stop();
      connection.end();
      return;
    }
    this.carried.add(carried);
    this.keepingAlive();
    followed.listen({
      event: (event) => connection.event(eventId(event.stream, event.seq), event.data),
      end: () => {
        this.drop(carried);
        connection.end();
      },
    });
  }

  /** Ends every stream carried here (the server is closing). */
  close(): void {
    for (const carried of [...this.carried]) {
      this.drop(carried);
      carried.connection.end();
    }
  }

  private drop(carried: Carried): void {
    carried.followed.stop();
    this.carried.delete(carried);
    if (this.carried.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private keepingAlive(): void {
    if (this.timer !== undefined || this.keepAliveMs === 0) return;
    this.timer = setInterval(() => {
      for (const { connection } of this.carried) connection.comment("keep-alive");
    }, this.keepAliveMs);
    this.timer.unref();
  }
}
