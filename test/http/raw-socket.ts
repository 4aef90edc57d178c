/**
 * A TCP connection to a test server, for what no HTTP client sends: two Host
 * headers, headers that never end, a body that never ends. Everything the
 * server sends is kept; `closed` resolves to it once the server hangs up.
 */
import { connect, type Socket } from "node:net";

export interface RawSocket {
  readonly socket: Socket;
  /**
   * Resolves to what arrived up to and including the next `text` not yet
   * received, or to the rest once the connection closed first.
   */
  receive(text: string): Promise<string>;
  /** Resolves to everything the server sent, once the connection is closed. */
  readonly closed: Promise<string>;
}

/** Opens a connection to the host and port of `url`. */
export function openSocket(url: string): Promise<RawSocket> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    let data = "";
    let consumed = 0;
    const waiting = new Set<() => void>();
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      data += chunk;
      for (const check of waiting) check();
    });
    // A reset closes the connection as surely as an end does: `closed` says what came before it.
    socket.on("error", () => {});
    const closed = new Promise<string>((resolveClosed) =>
      socket.once("close", () => {
        for (const check of waiting) check();
        resolveClosed(data);
      }),
    );
    const receive = (text: string) =>
      new Promise<string>((resolveText) => {
        const check = () => {
          const at = data.indexOf(text, consumed);
          if (at === -1 && !socket.destroyed) return;
          waiting.delete(check);
          const end = at === -1 ? data.length : at + text.length;
          resolveText(data.slice(consumed, end));
          consumed = end;
        };
        waiting.add(check);
        check();
      });
    socket.once("connect", () => resolve({ socket, receive, closed }));
    socket.once("error", reject);
  });
}

/** Sends `text` as it is and resolves to everything the server answered before closing. */
export async function rawExchange(url: string, text: string): Promise<string> {
  const raw = await openSocket(url);
  raw.socket.write(text);
  return raw.closed;
}

/** A request head in HTTP/1.1 framing: the request line, `headers` in order, a blank line. */
export function requestHead(
  method: string,
  path: string,
  headers: ReadonlyArray<readonly [string, string | number]>,
): string {
  return `${method} ${path} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`;
}
