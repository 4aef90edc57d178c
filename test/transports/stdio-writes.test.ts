/** How StdioTransport frames its output: what is ready together goes out in one write. */
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer, defineTool, serveStdio } from "../../src/index.js";

function echoServer() {
  return createServer({ name: "writes", version: "1.0.0" }).add(
    defineTool({
      name: "echo",
      description: "Echo",
      input: { message: z.string() },
      handler: ({ message }) => message,
    }),
  );
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function call(id: number, message: string): string {
  const params = { name: "echo", arguments: { message }, _meta: ENVELOPE };
  return `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params })}\n`;
}

/** A served connection whose every write to stdout is kept, in order. */
function serve() {
  const input = new PassThrough();
  const writes: string[] = [];
  let onWrite = () => {};
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      onWrite();
      done();
    },
  });
  const served = serveStdio(echoServer(), { input, output });
  /** Resolves once the output holds `count` lines. */
  const lines = (count: number) =>
    new Promise<string[]>((resolve) => {
      const check = () => {
        const all = writes.join("").split("\n").filter(Boolean);
        if (all.length >= count) resolve(all);
      };
      onWrite = check;
      check();
    });
  return { input, writes, served, lines };
}

const idsOf = (lines: string[]) => lines.map((line) => JSON.parse(line).id);

describe("stdio output", () => {
  it("writes the answers to requests that arrived together in one write, in order", async () => {
    const { input, writes, lines } = serve();
    // A first call alone, so the three below take the same path (nothing left to set up).
    input.write(call(1, "warm"));
    await lines(1);
    input.write(call(2, "a") + call(3, "b") + call(4, "c"));
    expect(idsOf(await lines(4))).toEqual([1, 2, 3, 4]);
    expect(writes).toHaveLength(2);
    input.end();
  });

  it("writes a lone answer at once, without waiting for more", async () => {
    const { input, writes, lines } = serve();
    input.write(call(1, "a"));
    expect(idsOf(await lines(1))).toEqual([1]);
    input.write(call(2, "b"));
    expect(idsOf(await lines(2))).toEqual([1, 2]);
    expect(writes).toHaveLength(2);
    input.end();
  });

  it("writes what is ready before it closes when the input ends", async () => {
    const { input, writes, served } = serve();
    input.end("{not json\n");
    await served;
    expect(writes.join("")).toBe(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32700,
          message: `Parse error: Expected property name or '}' in JSON at position 1`,
        },
      })}\n`,
    );
  });
});
