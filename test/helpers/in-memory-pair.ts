/**
 * The official SDK clients, talking to a server in this process: one end of
 * an SDK in-memory pair (each SDK has its own `InMemoryTransport`) carries the
 * server's side through `server.connect`, the other goes to the client. Every
 * message is encoded and parsed as on the wire. No port, no child process.
 */
import { InMemoryTransport as InMemoryV2 } from "@modelcontextprotocol/client";
import { InMemoryTransport as InMemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "../../src/index.js";
import {
  encodeBatch,
  encodeMessage,
  type JsonRpcMessage,
  parseMessage,
} from "../../src/jsonrpc/index.js";

/** What both SDKs' in-memory transports have. */
interface SdkEnd {
  onmessage?: ((message: never) => void) | undefined;
  onclose?: (() => void) | undefined;
  start(): Promise<void>;
  send(message: never): Promise<void>;
  close(): Promise<void>;
}

function serve<T extends SdkEnd>(server: McpServer, [clientEnd, serverEnd]: [T, T]): T {
  server.connect({
    start(receiver) {
      serverEnd.onmessage = ((message: unknown) =>
        receiver.receive(parseMessage(JSON.stringify(message)))) as never;
      serverEnd.onclose = () => receiver.closed();
      void serverEnd.start();
    },
    send(message: JsonRpcMessage | JsonRpcMessage[]) {
      const text = Array.isArray(message) ? encodeBatch(message) : encodeMessage(message);
      const sent = JSON.parse(text) as unknown;
      for (const item of Array.isArray(sent) ? sent : [sent]) {
        serverEnd.send(item as never).catch(() => {});
      }
    },
    close: () => serverEnd.close(),
  });
  return clientEnd;
}

/** The client end of a pair whose server end `server` serves, for the v1 SDK client. */
export function inMemoryV1(server: McpServer): InMemoryV1 {
  return serve(server, InMemoryV1.createLinkedPair());
}

/** The same for the v2 client (`@modelcontextprotocol/client`). */
export function inMemoryV2(server: McpServer): InMemoryV2 {
  return serve(server, InMemoryV2.createLinkedPair() as [InMemoryV2, InMemoryV2]);
}
