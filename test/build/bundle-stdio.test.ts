/**
 * A built bundle served over stdio to a client that wrote its initialize
 * before the bundle started (as a client that spawns it does): the session
 * hears of no change, as with `serve`, since nothing changed after it opened.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { builtExample, bundleCommand } from "./helpers/runtimes.js";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};
const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

const running = new Set<ChildProcessWithoutNullStreams>();

afterEach(() => {
  for (const child of running) child.kill();
  running.clear();
});

/** The bundle's stdout, one parsed message per line, each handed to `onMessage` as it comes. */
function readMessages(
  child: ChildProcessWithoutNullStreams,
  onMessage: (message: { id?: number }) => void,
): unknown[] {
  const messages: unknown[] = [];
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
      const message = JSON.parse(pending.slice(0, end));
      pending = pending.slice(end + 1);
      messages.push(message);
      onMessage(message);
    }
  });
  return messages;
}

describe.each(["node", "bun", "deno"] as const)("a bundle run by %s over stdio", (runtime) => {
  it("sends a session opened at start no list_changed", async () => {
    const { command, args } = bundleCommand(runtime, await builtExample(runtime), []);
    const child = spawn(command, args, { stdio: "pipe" });
    running.add(child);
    // In the pipe before the bundle starts: it reads it in its first turn.
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    const exited = new Promise((resolve) => child.once("close", resolve));
    // The ping goes once initialize is answered: a change pending then would be told before its answer.
    const messages = readMessages(child, (message) => {
      if (message.id === 0) child.stdin.write(`${JSON.stringify(PING)}\n`);
      if (message.id === 1) child.stdin.end();
    });
    expect(await exited).toBe(0);
    expect(messages).toEqual([
      {
        jsonrpc: "2.0",
        id: 0,
        result: expect.objectContaining({
          protocolVersion: "2025-11-25",
          serverInfo: expect.objectContaining({ name: "example-server" }),
        }),
      },
      { jsonrpc: "2.0", id: 1, result: {} },
    ]);
  });
});
