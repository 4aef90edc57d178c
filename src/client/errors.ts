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
 * that kind was given); `requests` says what, by the keys the server gave them.
 */
export class InputRequiredError extends Error {
  constructor(readonly requests: Record<string, InputRequest>) {
    const methods = [...new Set(Object.values(requests).map(({ method }) => method))];
    super(
      `The handler asked for input this client has no answer for (${methods.join(", ")}); give the client a responder for it (elicitation, sampling or roots)`,
    );
    this.name = "InputRequiredError";
  }
}
