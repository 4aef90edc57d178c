import { PassThrough } from "node:stream";
import { type McpServer, serveStdio } from "../index.js";
import { LATEST_STATEFUL_VERSION } from "../protocol/versions.js";

type Message = {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
};

export interface InProcessClient {
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A minimal MCP client for one server in this process, over the same stdio
 * transport a real client uses (through a pair of in-memory streams), so a
 * call runs exactly as it would when served. It declares no client
 * capabilities, so a handler that asks for elicitation or sampling is told
 * the client cannot.
 */
export async function connectInProcess(
  server: McpServer,
  onNotification: (method: string, params: Record<string, unknown>) => void,
): Promise<InProcessClient> {
  const toServer = new PassThrough();
  const fromServer = new PassThrough({ encoding: "utf8" });
  const served = serveStdio(server, { input: toServer, output: fromServer });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let buffered = "";

  const send = (message: object) =>
    toServer.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  const receive = (message: Message) => {
    if (message.method !== undefined && message.id !== undefined) {
      send({
        id: message.id,
        error: { code: -32601, message: `mcp-dir call does not answer ${message.method}` },
      });
    } else if (message.method !== undefined) {
      onNotification(message.method, message.params ?? {});
    } else if (typeof message.id === "number") {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error)
        waiter?.reject(
          new Error(`${message.error.message} (JSON-RPC error ${message.error.code})`),
        );
      else waiter?.resolve(message.result);
    }
  };
  fromServer.on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") receive(JSON.parse(line) as Message);
  });

  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });

  await request("initialize", {
    protocolVersion: LATEST_STATEFUL_VERSION,
    capabilities: {},
    clientInfo: { name: "mcp-dir call", version: "0" },
  });
  send({ method: "notifications/initialized" });
  return {
    request,
    async close() {
      toServer.end();
      await served;
    },
  };
}
