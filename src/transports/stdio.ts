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
import type { McpServer, MessageReceiver, Transport } from "../server/index.js";
import { stdoutGuard } from "./stdout-guard.js";

/** The longest delay a timer takes: its ticks do nothing, it only keeps the process alive. */
const HOLD_OPEN_MS = 2 ** 31 - 1;

export interface StdioOptions {
  input?: Readable;
  output?: Writable;
}

/**
 * Newline-delimited JSON-RPC over a pair of streams. The messages made ready
 * before the microtask queue comes back to a flush go out in one write: a
 * write is a system call, and with 16 to 64 requests in flight this takes the
 * server's CPU per call down by a third to a half at the same or better
 * throughput (measured with bench/stdio against a write per message). A
 * single request still goes out one microtask after it is answered.
 */
export class StdioTransport implements Transport {
  readonly network = { transport: "pipe" };
  private readonly decoder = new LineDecoder();
  private receiver: MessageReceiver | undefined;
  private ended = false;
  private pending: string[] = [];
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
      void this.endOfInput();
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

  /** No more requests, not "cancel": those received are answered before the transport closes. */
  private async endOfInput(): Promise<void> {
    // Time limits do not hold the process open (a hung handler must not): this does, meanwhile.
    const holdOpen = setInterval(() => {}, HOLD_OPEN_MS);
    try {
      await this.receiver?.inputEnded();
    } finally {
      clearInterval(holdOpen);
    }
    await this.close();
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.ended) return;
    const text = Array.isArray(message) ? encodeBatch(message) : encodeMessage(message);
    if (this.pending.push(text) === 1) queueMicrotask(this.flush);
  }

  private readonly flush = (): void => {
    const { pending } = this;
    if (pending.length === 0) return;
    this.pending = [];
    this.write(pending.length === 1 ? `${pending[0]}\n` : `${pending.join("\n")}\n`);
  };

  async close(): Promise<void> {
    if (!this.ended) {
      this.flush();
      this.ended = true;
      this.receiver?.closed();
      this.finish();
    }
  }

  /** Resolves when the input has ended, what it asked is answered, and the session is closed. */
  get closed(): Promise<void> {
    return this.done;
  }
}

/**
 * Serves `server` over stdin/stdout until stdin closes, what it asked is
 * answered, and the answers are written out. With Redis, it reads stdin once
 * the server is ready, as the HTTP door listens (a few seconds at most): a
 * replica then holds its lease before it runs a task, so that no other
 * replica's sweep takes the task for one whose replica died.
 */
export async function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  let release: (() => void) | undefined;
  let writeOut: (text: string, written: () => void) => void;
  if (options.output) {
    writeOut = (text, written) => void output.write(text, written);
  } else {
    // While serving, everything else written to stdout (author code's console.log
    // included) goes to stderr: stdout carries protocol messages only.
    const guard = stdoutGuard();
    release = guard.hold();
    writeOut = (text, written) => guard.write(text, written);
  }
  const writes = new WriteCount(output);
  const transport = new StdioTransport(input, (text) => writeOut(text, writes.started()));
  try {
    await server.ready();
    // A client that goes away closes the pipe: end the session instead of crashing on EPIPE.
    output.once("error", () => void transport.close());
    server.connect(transport);
    await transport.closed;
    await writes.allDone();
  } finally {
    release?.();
  }
}

/**
 * The writes to a stream not yet handed to the system. A pipe takes what it
 * has room for and the stream keeps the rest, which process.exit drops: the
 * CLI exits when serving ends, so serving ends only once there is none. Each
 * write is counted, not awaited: the next goes out without waiting for it.
 */
class WriteCount {
  private count = 0;
  private none: (() => void) | undefined;

  constructor(private readonly stream: Writable) {}

  /** Counts a write; returns its callback. */
  started(): () => void {
    this.count++;
    return this.ended;
  }

  // A stream calls back every write, in order, also when it fails or is destroyed.
  private readonly ended = (): void => {
    if (--this.count === 0) this.none?.();
  };

  allDone(): Promise<void> {
    if (this.count === 0 || this.stream.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      this.none = resolve;
    });
  }
}
