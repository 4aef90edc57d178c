import type { ResponseHeaders, ResponseWriter } from "../http/exchange.js";

const encoder = new TextEncoder();

/**
 * The door's ResponseWriter, building a web `Response`: a response written
 * whole becomes a `Response` with that body; one whose headers are flushed
 * before its end (an event stream) becomes a `Response` over a
 * `ReadableStream` that carries each write as it is made. The exchange is
 * over ("close") when the response ends, or when the client goes away first:
 * the request's signal aborts, or the runtime cancels the stream.
 */
export class FetchResponseWriter implements ResponseWriter {
  headersSent = false;
  destroyed = false;
  readonly response: Promise<Response>;
  private resolve!: (response: Response) => void;
  private status = 200;
  private headers: Headers | undefined;
  /** Headers set before `writeHead`, for whatever response it writes. */
  private readonly preset: [string, string][] = [];
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  private finished = false;
  private closed = false;
  private readonly listeners: { close: (() => void)[]; finish: (() => void)[] } = {
    close: [],
    finish: [],
  };

  constructor(signal: AbortSignal) {
    this.response = new Promise((resolve) => {
      this.resolve = resolve;
    });
    if (signal.aborted) this.gone();
    else signal.addEventListener("abort", () => this.gone(), { once: true });
  }

  /** Bytes written to the stream that the client has not taken yet. */
  get writableLength(): number {
    const desired = this.stream?.desiredSize;
    return desired === undefined || desired === null ? 0 : Math.max(0, -desired);
  }

  setHeader(name: string, value: string): this {
    this.preset.push([name, value]);
    return this;
  }

  writeHead(status: number, headers?: ResponseHeaders): this {
    this.status = status;
    this.headers = new Headers(this.preset);
    for (const [name, value] of Object.entries(headers ?? {})) {
      // The runtime owns the connection: it decides what "Connection" says.
      if (name === "connection") continue;
      if (Array.isArray(value)) for (const item of value) this.headers.append(name, item);
      else this.headers.set(name, String(value));
    }
    return this;
  }

  flushHeaders(): void {
    if (this.headersSent) return;
    this.headersSent = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.stream = controller;
        },
        cancel: () => this.gone(),
      },
      // Counted in bytes with no high-water mark: desiredSize is minus what waits unsent.
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    this.resolve(new Response(body, this.init()));
  }

  write(chunk: string): boolean {
    if (this.destroyed || this.finished) return false;
    this.flushHeaders();
    this.stream?.enqueue(encoder.encode(chunk));
    return true;
  }

  end(chunk?: string): this {
    if (this.finished || this.destroyed) return this;
    if (this.headersSent) {
      if (chunk !== undefined) this.write(chunk);
      this.stream?.close();
    } else {
      this.headersSent = true;
      this.resolve(new Response(chunk ?? null, this.init()));
    }
    this.finished = true;
    this.emit("finish");
    this.emit("close");
    return this;
  }

  /**
   * Drops the exchange: a stream errors (the client sees the connection
   * break); a response not begun resolves empty, since there is no one left
   * to read it.
   */
  destroy(): this {
    if (this.destroyed || this.finished) return this;
    this.destroyed = true;
    if (this.stream) this.stream.error(new Error("The server dropped the stream"));
    else this.resolve(new Response(null, { status: 204 }));
    this.emit("close");
    return this;
  }

  once(event: "close" | "finish", listener: () => void): this {
    if ((event === "close" && this.closed) || (event === "finish" && this.finished)) {
      listener();
    } else {
      this.listeners[event].push(listener);
    }
    return this;
  }

  /** The client went away before the end. */
  private gone(): void {
    if (this.finished || this.destroyed) return;
    this.destroyed = true;
    if (!this.headersSent) this.resolve(new Response(null, { status: 204 }));
    this.emit("close");
  }

  private emit(event: "close" | "finish"): void {
    if (event === "close") {
      if (this.closed) return;
      this.closed = true;
    }
    const listeners = this.listeners[event];
    this.listeners[event] = [];
    for (const listener of listeners) listener();
  }

  private init(): ResponseInit {
    return this.headers === undefined
      ? { status: this.status }
      : { status: this.status, headers: this.headers };
  }
}
