import { StringDecoder } from "node:string_decoder";
import { ErrorCode, JsonRpcError } from "./errors.js";

export interface LineDecoderOptions {
  /** Largest accepted line, in UTF-8 bytes, not counting the newline. Default 64 MiB. */
  maxLineBytes?: number;
}

const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Splits a byte or text stream into newline-delimited lines (stdio framing).
 *
 * When a line exceeds `maxLineBytes`, push() throws a JsonRpcError and the rest of that
 * line is dropped up to its newline. Lines completed in the same chunk, and text after the
 * oversized line, are not lost: the next push() (`push("")` will do) or end() returns them.
 */
export class LineDecoder {
  private readonly maxLineBytes: number;
  private readonly decoder = new StringDecoder("utf8");
  // The unterminated line so far, kept as pieces so a long line is joined only once.
  private pieces: string[] = [];
  private pieceBytes = 0;
  // True after an oversized partial line: drop everything up to the next newline.
  private discarding = false;
  // Work left over when an oversized line interrupted a push().
  private ready: string[] = [];
  private unscanned = "";

  constructor(options: LineDecoderOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  push(chunk: string | Uint8Array): string[] {
    const text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    return this.scan(text);
  }

  end(): string[] {
    let lines: string[];
    try {
      lines = this.scan(this.decoder.end());
    } catch (err) {
      // The stream is over, so there is no rest of the oversized line to discard.
      this.discarding = false;
      throw err;
    }
    const last = this.pieces.join("");
    const lastBytes = this.pieceBytes;
    this.resetLine();
    // Its byte size is already known, so emit() need not measure it again.
    if (last !== "") this.emit(lines, last, lastBytes);
    return lines;
  }

  private scan(incoming: string): string[] {
    const lines = this.ready;
    this.ready = [];
    const text = this.unscanned === "" ? incoming : this.unscanned + incoming;
    this.unscanned = "";

    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      const head = text.slice(start, newline);
      start = newline + 1;
      if (this.discarding) {
        this.discarding = false;
      } else {
        const line = this.pieces.length === 0 ? head : this.pieces.join("") + head;
        const bytes = this.pieces.length === 0 ? undefined : this.pieceBytes + byteLength(head);
        this.pieces = [];
        this.pieceBytes = 0;
        try {
          this.emit(lines, line, bytes);
        } catch (err) {
          this.ready = lines;
          this.unscanned = text.slice(start);
          throw err;
        }
      }
      newline = text.indexOf("\n", start);
    }

    const tail = start === 0 ? text : text.slice(start);
    if (tail !== "" && !this.discarding) {
      this.pieces.push(tail);
      this.pieceBytes += byteLength(tail);
      if (this.pieceBytes > this.maxLineBytes) {
        this.resetLine();
        this.discarding = true;
        this.ready = lines;
        throw this.tooLarge();
      }
    }
    return lines;
  }

  /** Appends `raw` (minus a CR) unless blank; `rawBytes` is its UTF-8 size when already known. */
  private emit(lines: string[], raw: string, rawBytes: number | undefined): void {
    const crlf = raw.endsWith("\r");
    const line = crlf ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    const bytes = rawBytes === undefined || !crlf ? rawBytes : rawBytes - 1;
    if (exceeds(line, bytes, this.maxLineBytes)) throw this.tooLarge();
    lines.push(line);
  }

  private resetLine(): void {
    this.pieces = [];
    this.pieceBytes = 0;
    this.discarding = false;
  }

  private tooLarge(): JsonRpcError {
    return new JsonRpcError(
      ErrorCode.InvalidRequest,
      `Message too large: a line exceeds the limit of ${this.maxLineBytes} bytes`,
    );
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

function exceeds(line: string, knownBytes: number | undefined, max: number): boolean {
  if (knownBytes !== undefined) return knownBytes > max;
  // A UTF-16 code unit encodes to 1-3 UTF-8 bytes, so most lines need no exact count.
  if (line.length * 3 <= max) return false;
  if (line.length > max) return true;
  return byteLength(line) > max;
}
