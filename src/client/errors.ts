import { missingResponder } from "./responders.js";

/** What a request's input request asks: `elicitation/create`, `sampling/createMessage` or `roots/list`. */
export interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** The server answered a request with a JSON-RPC error: its code, message and data. */
export class RequestError extends Error {
  constructor(
    readonly code: number,
    readonly serverMessage: string,
    readonly data?: unknown,
  ) {
    super(`${serverMessage} (JSON-RPC error ${code})`);
    this.name = "RequestError";
  }
}

/**
 * A handler asked for input this client has no answer for (no responder of
 * that kind was given), in either era; `requests` says what, by the keys the
 * server gave them (2026-07-28: its input requests' keys; a 2025 session: the
 * id of its request).
 */
export class InputRequiredError extends Error {
  constructor(readonly requests: Record<string, InputRequest>) {
    const methods = [...new Set(Object.values(requests).map(({ method }) => method))];
    super(`The handler asked for ${methods.map(missingResponder).join("; and for ")}`);
    this.name = "InputRequiredError";
  }
}
