import { ErrorCode } from "../../jsonrpc/index.js";
import type { BodyOutcome } from "./exchange.js";
import { TRANSPORT_ERROR } from "./responses.js";
import type { Refusal } from "./security.js";

/**
 * How a body that was not read whole is answered: undefined when no one is
 * left to answer (the client went away). A refusal that closes the
 * connection (`connection: close`) leaves the rest of the body unread.
 */
export function bodyRefusal(
  outcome: Exclude<BodyOutcome, { ok: true }>,
  maxBodyBytes: number,
): Refusal | undefined {
  switch (outcome.reason) {
    case "not-utf8":
      return {
        status: 400,
        code: ErrorCode.ParseError,
        message:
          "Parse error: the body is not valid UTF-8; send the JSON-RPC message encoded in UTF-8",
      };
    case "timed-out":
      return {
        status: 408,
        code: TRANSPORT_ERROR,
        message: `Request Timeout: the body did not arrive whole within ${outcome.afterMs} ms; send it at once, or raise requestTimeoutMs`,
        headers: { connection: "close" },
      };
    case "too-large":
      // Close rather than read and discard the rest of a body that may never end.
      return {
        status: 413,
        code: TRANSPORT_ERROR,
        message: `Payload Too Large: the body exceeds ${maxBodyBytes} bytes; send a smaller message or raise maxBodyBytes`,
        headers: { connection: "close" },
      };
    case "aborted":
      return undefined;
  }
}
