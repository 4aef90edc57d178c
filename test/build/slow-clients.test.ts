/**
 * The time limits of a built bundle on each runtime that listens itself
 * (Node, Bun, Deno, and `deno serve`): a body that never ends is answered
 * 408 at requestTimeoutMs everywhere, and on Bun, whose idle timeout runs while a
 * request is answered, neither a long call nor a quiet event stream is cut.
 * And its end: SIGTERM or SIGINT closes it, then the signal ends the process.
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, it, type TestContext } from "vitest";
import { postStateless } from "../helpers/stateless-post.js";
import { openSocket, type RawSocket, requestHead } from "../http/raw-socket.js";
import { startProgram, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { build, bundleCommand, startDoor, targetOf } from "./helpers/runtimes.js";

/** `hold` answers once `release` is called: a call as long as the test wants, timed by nothing. */
const HOLD_TOOLS = `import { defineTool } from "mcp-dir";

const gate = globalThis as { release?: () => void; released?: Promise<void> };
gate.released ??= new Promise<void>((resolve) => {
  gate.release = resolve;
});

export const hold = defineTool({
  name: "hold",
  description: "Reports progress, then answers once release is called",
  handler: async (_args, ctx) => {
    await ctx.progress(1, 2, "holding");
    await gate.released;
    return "released";
  },
});

export const release = defineTool({
  name: "release",
  description: "Lets hold answer",
  handler: () => {
    gate.release?.();
    return "done";
  },
});
`;

const CONFIG = { http: { requestTimeoutMs: 1000, headersTimeoutMs: 500, keepAliveMs: 0 } };

let dir: string;
let outRoot: string;

beforeAll(async () => {
  dir = await createServerDir({
    "tools/hold.ts": HOLD_TOOLS,
    "mcp-dir.config.json": JSON.stringify(CONFIG),
  });
  outRoot = await createServerDir({});
  await Promise.all(
    (["node", "bun", "deno"] as const).map((target) => build(dir, join(outRoot, target), target)),
  );
});

/** A connection the test that opened it closes when it ends (the tests run at once). */
async function connect(url: string, context: TestContext): Promise<RawSocket> {
  const raw = await openSocket(url);
  context.onTestFinished(() => {
    raw.socket.destroy();
  });
  return raw;
}

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

function call(url: string, name: string, progressToken?: string): Promise<Response> {
  return postStateless(url, {
    id: name,
    method: "tools/call",
    name,
    params: { name, arguments: {} },
    meta: progressToken === undefined ? undefined : { progressToken },
  });
}

// Each case waits on a timer in a process of its own (Bun's idle timeout is a fixed 10 s):
// the cases run at once, each with its own server and its own connections.
describe.concurrent.each(["node", "bun", "deno", "deno serve"] as const)(
  "a bundle run by %s",
  (door) => {
    it("answers 408 to a body that has not ended within requestTimeoutMs", async (context) => {
      const { expect } = context;
      const url = await startDoor(door, { dir, out: join(outRoot, targetOf(door) ?? "") }, {});
      const raw = await connect(url, context);
      raw.socket.write(
        `${requestHead("POST", "/mcp", [
          ["host", new URL(url).host],
          ["content-type", "application/json"],
          ["accept", "application/json, text/event-stream"],
          ["transfer-encoding", "chunked"],
        ])}5\r\n{"jso\r\n`,
      );
      expect(await raw.receive("\r\n\r\n")).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      // node:http answers 408 itself, before the door; Bun and Deno leave it to the door.
      if (door !== "node") {
        expect(await raw.receive("}}")).toBe(
          '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Request Timeout: the body did not arrive whole within 1000 ms; send it at once, or raise requestTimeoutMs"}}',
        );
      }
    });
  },
);

describe.concurrent("a bundle run by Bun", () => {
  it("cuts neither a long call nor a quiet event stream at its idle timeout", async (context) => {
    const { expect } = context;
    const url = await startDoor("bun", { dir, out: join(outRoot, "bun") }, {});
    const plain = call(url, "hold");
    const streamed = await call(url, "hold", "progress");
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const events = streamed.body?.pipeThrough(new TextDecoderStream()).getReader();
    expect((await events?.read())?.value).toContain('"message":"holding"');
    // Bun closes a connection that has sent nothing after its fixed 10 s: by then every
    // connection opened before it has been idle as long, and would have been cut with it.
    const silent = await connect(url, context);
    expect(await silent.closed).toBe("");
    expect(await (await call(url, "release")).json()).toMatchObject({ result: {} });
    expect(await (await plain).json()).toMatchObject({
      result: { content: [{ type: "text", text: "released" }] },
    });
    let rest = "";
    for (let read = await events?.read(); read && !read.done; read = await events?.read()) {
      rest += read.value;
    }
    expect(rest).toContain('"text":"released"');
  });
});

// Both signals take one path (awaitShutdownSignal): each runtime is sent one of them.
describe.concurrent("a bundle run as a program", () => {
  it.for([
    ["node", "SIGTERM"],
    ["bun", "SIGTERM"],
    ["deno", "SIGINT"],
  ] as const)(
    "by %s answers a pending call and ends by the signal itself on %s, as a supervisor expects",
    async ([door, signal], { expect }) => {
      const { command, args } = bundleCommand(door, join(outRoot, door), ["--http", "--port", "0"]);
      const running = await startProgram(command, args);
      const pending = call(running.url, "hold", "progress");
      const events = (await pending).body?.pipeThrough(new TextDecoderStream()).getReader();
      expect((await events?.read())?.value).toContain('"message":"holding"');
      running.child.kill(signal);
      let rest = "";
      for (let read = await events?.read(); read && !read.done; read = await events?.read()) {
        rest += read.value;
      }
      expect(rest).toContain('"error"');
      expect(await running.exited).toEqual({ code: null, signal });
    },
  );
});
