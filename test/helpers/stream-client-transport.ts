import { PassThrough } from "node:stream";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * The SDK client's end of a stdio channel that is a pair of streams in this
 * process, as StdioClientTransport is its end of a child's pipes: the same
 * newline-delimited JSON (the SDK's own framing). Closing ends the server's
 * input and waits for `ended`, as closing a child's stdin waits for its exit.
 */
export class StreamClientTransport implements Transport {
  /** The server's stdin. */
  readonly input = new PassThrough();
  /** The server's stdout. */
  readonly output = new PassThrough();
  /** Settles when the server has stopped (set before close is called). */
  ended: Promise<unknown> = Promise.resolve();
  /** The revision the client negotiated, as the v1 client tells a transport that can be told. */
  protocolVersion: string | undefined;
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly received = new ReadBuffer();

  async start(): Promise<void> {
    this.output.on("data", (chunk: Buffer) => {
      this.received.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.received.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.input.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.input.end();
    await this.ended;
    this.onclose?.();
  }
}
