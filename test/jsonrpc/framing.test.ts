import { describe, expect, it } from "vitest";
import { ErrorCode, isJsonRpcError, LineDecoder } from "../../src/jsonrpc/index.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}

describe("LineDecoder", () => {
  it("returns a complete line", () => {
    const d = new LineDecoder();
    expect(d.push('{"a":1}\n')).toEqual(['{"a":1}']);
    expect(d.end()).toEqual([]);
  });

  it("keeps a partial line until the rest arrives", () => {
    const d = new LineDecoder();
    expect(d.push('{"jsonrpc":')).toEqual([]);
    expect(d.push('"2.0",')).toEqual([]);
    expect(d.push('"method":"n"}\n{"next"')).toEqual(['{"jsonrpc":"2.0","method":"n"}']);
    expect(d.push(":2}\n")).toEqual(['{"next":2}']);
  });

  it("returns several messages from one chunk", () => {
    const d = new LineDecoder();
    expect(d.push("one\ntwo\nthree\nfour")).toEqual(["one", "two", "three"]);
    expect(d.push("\n")).toEqual(["four"]);
  });

  it("strips a trailing CR, including a CRLF split across chunks", () => {
    const d = new LineDecoder();
    expect(d.push("a\r\nb\r")).toEqual(["a"]);
    expect(d.push("\nc\r\n")).toEqual(["b", "c"]);
  });

  it("strips only one trailing CR and leaves inner CRs alone", () => {
    const d = new LineDecoder();
    expect(d.push("x\ry\r\r\n")).toEqual(["x\ry\r"]);
  });

  it("skips empty and whitespace-only lines", () => {
    const d = new LineDecoder();
    expect(d.push("\n\n  \t \n\r\na\n \r\n\nb\n")).toEqual(["a", "b"]);
    expect(d.push("   ")).toEqual([]);
    expect(d.end()).toEqual([]);
  });

  it("keeps surrounding whitespace on non-blank lines", () => {
    const d = new LineDecoder();
    expect(d.push("  {}  \n")).toEqual(["  {}  "]);
  });

  it("accepts Uint8Array chunks", () => {
    const d = new LineDecoder();
    expect(d.push(bytes('{"x":"y"}\n{"z"'))).toEqual(['{"x":"y"}']);
    expect(d.push(bytes(":1}\n"))).toEqual(['{"z":1}']);
  });

  it("decodes a multi-byte character split across chunks", () => {
    const encoded = bytes('{"s":"é€😀"}\n');
    // Split inside the 2-, 3- and 4-byte sequences.
    const cuts = [7, 9, 10, 12, 14, 15];
    const d = new LineDecoder();
    const out: string[] = [];
    let from = 0;
    for (const cut of [...cuts, encoded.length]) {
      out.push(...d.push(encoded.subarray(from, cut)));
      from = cut;
    }
    expect(out).toEqual(['{"s":"é€😀"}']);
  });

  it("decodes one byte at a time", () => {
    const text = '{"emoji":"👍🏽","cjk":"漢字"}\n{"b":2}\n';
    const d = new LineDecoder();
    const out: string[] = [];
    for (const byte of bytes(text)) out.push(...d.push(Uint8Array.of(byte)));
    expect(out).toEqual(['{"emoji":"👍🏽","cjk":"漢字"}', '{"b":2}']);
  });

  it("end() returns a final unterminated line", () => {
    const d = new LineDecoder();
    expect(d.push("a\nlast")).toEqual(["a"]);
    expect(d.end()).toEqual(["last"]);
  });

  it("end() strips a CR from the final line and resets", () => {
    const d = new LineDecoder();
    d.push("tail\r");
    expect(d.end()).toEqual(["tail"]);
    expect(d.end()).toEqual([]);
    expect(d.push("fresh\n")).toEqual(["fresh"]);
  });

  it("end() flushes an incomplete UTF-8 sequence as a replacement character", () => {
    const d = new LineDecoder();
    d.push(bytes("ab"));
    d.push(Uint8Array.of(0xe2, 0x82));
    expect(d.end()).toEqual(["ab\uFFFD"]);
  });

  describe("maxLineBytes", () => {
    it("throws a JsonRpcError when a complete line is too large", () => {
      const d = new LineDecoder({ maxLineBytes: 8 });
      const err = catchError(() => d.push("123456789\n"));
      expect(isJsonRpcError(err)).toBe(true);
      expect(err).toMatchObject({
        code: ErrorCode.InvalidRequest,
        message: "Message too large: a line exceeds the limit of 8 bytes",
      });
    });

    it("accepts a line of exactly the limit, CR not counted", () => {
      const d = new LineDecoder({ maxLineBytes: 8 });
      expect(d.push("12345678\r\n")).toEqual(["12345678"]);
      expect(d.push("1234")).toEqual([]);
      expect(d.push("5678\r\n")).toEqual(["12345678"]);
    });

    it("counts UTF-8 bytes, not characters", () => {
      const d = new LineDecoder({ maxLineBytes: 8 });
      expect(d.push("€€\n")).toEqual(["€€"]);
      expect(() => d.push("€€€\n")).toThrow("Message too large");
    });

    it("throws once a partial line grows too large, then drops the rest of that line", () => {
      const d = new LineDecoder({ maxLineBytes: 10 });
      expect(d.push("0123456")).toEqual([]);
      expect(() => d.push("789abc")).toThrow("Message too large");
      expect(d.push("still the same huge line")).toEqual([]);
      expect(d.push(' end\n{"ok":1}\n')).toEqual(['{"ok":1}']);
      expect(d.end()).toEqual([]);
    });

    it("does not lose lines completed in the same chunk as an oversized one", () => {
      const d = new LineDecoder({ maxLineBytes: 5 });
      expect(() => d.push("a\nbb\ntoo-long-line\ncc\ndd")).toThrow("Message too large");
      expect(d.push("")).toEqual(["a", "bb", "cc"]);
      expect(d.end()).toEqual(["dd"]);
    });

    it("keeps lines before an oversized partial tail", () => {
      const d = new LineDecoder({ maxLineBytes: 5 });
      expect(() => d.push("ok\nabcdefgh")).toThrow("Message too large");
      expect(d.push("ij\nnext\n")).toEqual(["ok", "next"]);
    });

    it("throws from end() when the flushed replacement character makes the line too large", () => {
      const d = new LineDecoder({ maxLineBytes: 3 });
      expect(d.push(bytes("ab"))).toEqual([]);
      expect(d.push(Uint8Array.of(0xe2))).toEqual([]);
      expect(() => d.end()).toThrow("Message too large");
      expect(d.push("ok\n")).toEqual(["ok"]);
    });

    it("end() after a throw returns the lines that were held back", () => {
      const d = new LineDecoder({ maxLineBytes: 3 });
      expect(() => d.push("a\nlong-line\nb\nc")).toThrow("Message too large");
      expect(d.end()).toEqual(["a", "b", "c"]);
    });

    it("defaults to 64 MiB", () => {
      const d = new LineDecoder();
      const big = "x".repeat(1024 * 1024);
      for (let i = 0; i < 64; i++) expect(d.push(big)).toEqual([]);
      expect(() => d.push("y")).toThrow("limit of 67108864 bytes");
    });
  });

  it("assembles a large line from many chunks", () => {
    const d = new LineDecoder();
    const piece = "z".repeat(1000);
    for (let i = 0; i < 5000; i++) expect(d.push(piece)).toEqual([]);
    const [line] = d.push("\n");
    expect(line?.length).toBe(5_000_000);
  });
});
