import type { Readable, Writable } from "node:stream";
import {
  encodeBatch,
  encodeMessage,
  failure,
  isJsonRpcError,
  type JsonRpcMessage,
  LineDecoder,
  parseMessage,
} from "../jsonrpc/index.js";
import type { McpServer } from "../server/server.js";
import type { MessageReceiver, Transport } from "../server/transport.js";

export interface StdioOptions {
  input?: Readable;
  output?: Writable;
}

/**
 * Newline-delimited JSON-RPC over a pair of streams. Each message is written as
 * soon as it is ready: coalescing writes per tick was measured to turn a
 * pipelined client into ping-pong and cost a third of the throughput.
 */
export class StdioTransport implements Transport {
  private readonly decoder = new LineDecoder();
  private receiver: MessageReceiver | undefined;
  private ended = false;
  private readonly done: Promise<void>;
  private finish!: () => void;

  constructor(
    private readonly input: Readable,
    private readonly write: (text: string) => void,
  ) {
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  start(receiver: MessageReceiver): void {
    this.receiver = receiver;
    this.input.on("data", (chunk: Buffer | string) => this.deliver(() => this.decoder.push(chunk)));
    this.input.once("end", () => {
      this.deliver(() => this.decoder.end());
      void this.close();
    });
    this.input.once("error", () => void this.close());
  }

  private deliver(lines: () => string[]): void {
    let batch: string[];
    try {
      batch = lines();
    } catch (error) {
      if (!isJsonRpcError(error)) throw error;
      this.send(failure(null, error.code, error.message));
      batch = this.decoder.push("");
    }
    for (const line of batch) this.receiver?.receive(parseMessage(line));
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.ended) return;
    const text = Array.isArray(message) ? encodeBatch(message) : encodeMessage(message);
    this.write(`${text}\n`);
  }

  async close(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      this.receiver?.closed();
      this.finish();
    }
  }

  /** Resolves when the input has ended and the session is closed. */
  get closed(): Promise<void> {
    return this.done;
  }
}

/**
 * Routes everything author code writes to stdout (console.log included) to
 * stderr, and returns the real stdout writer for protocol messages only.
 */
function claimStdout(): (text: string) => void {
  const stdout = process.stdout;
  const writeProtocol = stdout.write.bind(stdout);
  const toStderr = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  stdout.write = toStderr;
  return (text) => {
    writeProtocol(text);
  };
}

/** Serves `server` over stdin/stdout until stdin closes. */
export async function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output;
  const write = output ? (text: string) => void output.write(text) : claimStdout();
  const transport = new StdioTransport(input, write);
  // A client that goes away closes the pipe: end the session instead of crashing on EPIPE.
  (output ?? process.stdout).once("error", () => void transport.close());
  server.connect(transport);
  await transport.closed;
}
