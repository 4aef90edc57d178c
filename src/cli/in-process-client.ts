import { PassThrough } from "node:stream";
import { META } from "../protocol/meta.js";
import type { ClientCapabilities } from "../protocol/types.js";
import { STATELESS_VERSION } from "../protocol/versions.js";
import type { McpServer } from "../server/server.js";
import { serveStdio } from "../transports/stdio.js";

type Params = Record<string, unknown>;
type Message = {
  id?: string | number;
  method?: string;
  params?: Params;
  result?: Params;
  error?: { code: number; message: string };
};

/** One request a handler made of its client, as an `input_required` result carries it. */
export interface InputRequest {
  method: string;
  params?: Params;
}

export interface InProcessOptions {
  /** Progress and log messages. */
  onNotification(method: string, params: Params): void;
  /** What this client can answer; declare only what `fulfil` handles. */
  capabilities?: ClientCapabilities;
  /** Answers a round of the server's requests, by key. Without it, a round is an error. */
  fulfil?(requests: Record<string, InputRequest>): Promise<Record<string, Params>>;
}

/** A handler asked for input this client could not give; `requests` says what. */
export class InputRequiredError extends Error {
  constructor(readonly requests: Record<string, InputRequest>) {
    super("The handler asked for input this client cannot give");
    this.name = "InputRequiredError";
  }
}

export interface InProcessClient {
  /** Sends a request; rounds of `input_required` are fulfilled and retried until a result. */
  request(method: string, params: Params): Promise<Params>;
  /** Also tells `listener` of every notification, until the function returned is called. */
  onNotification(listener: (method: string, params: Params) => void): () => void;
  close(): Promise<void>;
}

/**
 * A minimal 2026-07-28 client for one server in this process, over the same
 * stdio transport a real client uses (through a pair of in-memory streams), so
 * a call runs exactly as it would when served, including handlers that ask
 * for input through `input_required` results.
 */
export function connectInProcess(server: McpServer, options: InProcessOptions): InProcessClient {
  const toServer = new PassThrough();
  const fromServer = new PassThrough({ encoding: "utf8" });
  const served = serveStdio(server, { input: toServer, output: fromServer });
  const pending = new Map<number, { resolve(value: Params): void; reject(error: Error): void }>();
  const envelope = {
    [META.protocolVersion]: STATELESS_VERSION,
    [META.clientInfo]: { name: "mcp-dir", version: "0" },
    [META.clientCapabilities]: options.capabilities ?? {},
    // Every log message: the command shows them on stderr.
    [META.logLevel]: "debug",
  };
  let nextId = 1;
  let buffered = "";
  const listeners = new Set<(method: string, params: Params) => void>();

  const receive = (message: Message) => {
    if (message.method !== undefined) {
      options.onNotification(message.method, message.params ?? {});
      for (const listener of [...listeners]) listener(message.method, message.params ?? {});
    } else if (typeof message.id === "number") {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error)
        waiter?.reject(
          new Error(`${message.error.message} (JSON-RPC error ${message.error.code})`),
        );
      else waiter?.resolve(message.result ?? {});
    }
  };
  fromServer.on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") receive(JSON.parse(line) as Message);
  });

  const send = (method: string, params: Params) =>
    new Promise<Params>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      const _meta = { ...(params._meta as Params | undefined), ...envelope };
      toServer.write(
        `${JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta } })}\n`,
      );
    });

  return {
    async request(method, params) {
      let retry: Params = {};
      // The server caps the rounds of one request, so this ends.
      for (;;) {
        const result = await send(method, { ...params, ...retry });
        if (result.resultType !== "input_required") return result;
        const requests = (result.inputRequests ?? {}) as Record<string, InputRequest>;
        if (!options.fulfil) throw new InputRequiredError(requests);
        retry = { inputResponses: await options.fulfil(requests) };
        if (result.requestState !== undefined) retry.requestState = result.requestState;
      }
    },
    onNotification(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      toServer.end();
      await served;
    },
  };
}
